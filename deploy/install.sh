#!/usr/bin/env bash
# A club's Kibitz server on a fresh Debian machine, from Debian's packages and this repository.
#   sudo deploy/install.sh --name kibitz.example.org              # public name: automatic HTTPS
#   sudo deploy/install.sh --name kibitz.lan --tls internal       # a LAN name: Caddy's own CA
# Options (deploy/kibitz_deploy.py --help): --servers N, --prefix DIR, --mode systemd|supervisor,
# ports, --backup-every. Safe to run again: it rewrites the same files and keeps data and keys.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
packages=(caddy postgresql redis-server python3 python3-venv nodejs npm ca-certificates)
missing=()
for p in "${packages[@]}"; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p"); done
if ((${#missing[@]})); then
  if [[ $(id -u) -ne 0 ]]; then echo "missing Debian packages: ${missing[*]} (run as root)" >&2; exit 1; fi
  DEBIAN_FRONTEND=noninteractive apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
fi
exec python3 "$here/kibitz_deploy.py" "$@"
