"""Load benchmark: a real gunicorn on loopback under a realistic mix of concurrent clients."""
