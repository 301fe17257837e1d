"""Calls mockstack with the DTOs its /types/python generated, through PyPI's `servicestack`
client (Tests/MockStackTests/DTOClientTests.swift).

usage: python_client.py APP DTOS_FILE BASE_URL [APP DTOS_FILE BASE_URL ...]
For each app: imports DTOS_FILE as a module, sends the app's requests as the client library
sends them and prints what came back as one JSON object on a line, which the Swift test
compares exactly. One interpreter for every app: each process a test starts costs time."""
import importlib.util
import json
import sys

from servicestack import JsonServiceClient


def load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_app(dtos, client):
    hello = client.get(dtos.Hello(name="World"))
    posted = client.post(dtos.Hello(name="Python"))
    return {"get": hello.result, "post": posted.result, "type": type(hello).__name__}


def techstacks_app(dtos, client):
    found = client.get(dtos.GetTechnology(slug="servicestack"))
    query = client.get(dtos.FindTechnologies(ids=[1]))
    return {
        "technology": found.technology.name,
        "tier": found.technology.tier,
        "found": [technology.name for technology in query.results],
        "type": type(query.results[0]).__name__,
    }


def ai_app(dtos, client):
    client.bearer_token = "ak-mockstack"
    message = dtos.OpenAiMessage(role="user", content="What is the capital of France?")
    answer = client.post(dtos.OpenAiChatCompletion(model="llama3.1:8b", messages=[message]))
    return {"content": answer.choices[0].message.content, "type": type(answer).__name__}


def main():
    calls = {"test": test_app, "techstacks": techstacks_app, "ai": ai_app}
    arguments = sys.argv[1:]
    for index in range(0, len(arguments), 3):
        app, path, base_url = arguments[index:index + 3]
        dtos = load(app + "_dtos", path)
        print(json.dumps(calls[app](dtos, JsonServiceClient(base_url)), sort_keys=True))


main()
