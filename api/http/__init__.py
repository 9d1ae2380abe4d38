"""The HTTP layer: Flask blueprints, marshmallow schemas, problem+json errors."""
