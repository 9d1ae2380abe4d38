"""The HTTP layer: Flask blueprints, marshmallow schemas, problem+json errors.

Every blueprint's `@blp.arguments` reads JSON bodies through `StrictParser` (limits before parsing,
api.http.strict); it is installed here, before any blueprint module is imported, because
flask-smorest binds the parser when the decorators run.
"""

from flask_smorest.arguments import ArgumentsMixin

from api.http.strict import StrictParser

ArgumentsMixin.ARGUMENTS_PARSER = StrictParser()
