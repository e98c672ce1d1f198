"""The local web app: the page, its static files and a declared JSON API over the same core as
the CLI (FastAPI on Starlette; the contract is served at /openapi.json).

app.py builds the app (cli/serve.py runs it); lesson_routes.py and model_routes.py hold the routes;
requests_lesson.py and requests_model.py declare what each route takes (request_fields.py the
kinds of value), encode/answers_*.py what each answers; error_replies.py answers every refusal
as {"error": message, "field": name}.
"""
