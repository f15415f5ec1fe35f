//! OpenAPI import: supported operations become tools with the right signatures, everything
//! else is skipped with a reason, and calls become the right HTTP requests.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::sync::{Arc, Mutex};

use codemode_tools::openapi::{HttpRequest, from_spec};
use codemode_tools::{CallContext, Namespace, ToolErrorKind};
use common::block_on;
use serde_json::{Value, json};

fn spec() -> Value {
    json!({
        "openapi": "3.1.0",
        "info": { "title": "Pets", "version": "1" },
        "security": [{ "apiKey": [] }],
        "components": {
            "securitySchemes": { "apiKey": { "type": "apiKey", "in": "header", "name": "X-Key" } },
            "parameters": { "PetId": { "name": "petId", "in": "path", "required": true, "description": "The pet's id", "schema": { "type": "string" } } },
            "schemas": {
                "Pet": { "type": "object", "required": ["name"], "properties": {
                    "id": { "type": "integer", "readOnly": true },
                    "name": { "type": "string", "description": "Pet name" },
                    "owner": { "$ref": "#/components/schemas/Owner" },
                    "secret": { "type": "string", "writeOnly": true }
                } },
                "Owner": { "type": "object", "properties": { "name": { "type": "string" }, "pets": { "type": "array", "items": { "$ref": "#/components/schemas/Pet" } } } },
                "Unused": { "type": "string" }
            },
            "responses": { "PetResponse": { "description": "A pet", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Pet" } } } } }
        },
        "paths": {
            "/pets": {
                "get": {
                    "operationId": "pets.list", "summary": "List pets",
                    "parameters": [
                        { "name": "limit", "in": "query", "schema": { "type": "integer", "maximum": 100 } },
                        { "name": "tags", "in": "query", "schema": { "type": "array", "items": { "type": "string" } } },
                        { "name": "X-Trace", "in": "header", "schema": { "type": "string" } }
                    ],
                    "responses": { "200": { "description": "ok", "content": { "application/json": { "schema": { "type": "array", "items": { "$ref": "#/components/schemas/Pet" } } } } } }
                },
                "post": {
                    "operationId": "pets.create", "summary": "Create a pet",
                    "requestBody": { "required": true, "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Pet" } } } },
                    "responses": { "201": { "$ref": "#/components/responses/PetResponse" } }
                }
            },
            "/pets/{petId}": {
                "parameters": [{ "$ref": "#/components/parameters/PetId" }],
                "get": { "operationId": "pets.get", "description": "Show one pet", "responses": { "200": { "$ref": "#/components/responses/PetResponse" } } },
                "delete": { "operationId": "pets.admin.delete", "security": [{ "oauth": ["admin"] }], "responses": { "204": { "description": "gone" } } },
                "patch": { "responses": { "204": { "description": "no operationId" } } }
            },
            "/pets/{petId}/photo": {
                "parameters": [{ "$ref": "#/components/parameters/PetId" }],
                "get": { "operationId": "photo.get", "responses": { "200": { "description": "png", "content": { "image/png": {} } } } },
                "put": { "operationId": "photo.put", "requestBody": { "content": { "multipart/form-data": { "schema": {} } } }, "responses": { "204": { "description": "ok" } } }
            },
            "/events": { "get": { "operationId": "events", "responses": { "200": { "description": "stream", "content": { "text/event-stream": {} } } } } },
            "/search": { "get": {
                "operationId": "search",
                "parameters": [{ "name": "filter", "in": "query", "style": "deepObject", "schema": { "type": "object" } }],
                "responses": { "200": { "description": "ok", "content": { "text/plain": {} } } }
            } },
            "/session": { "get": {
                "operationId": "session",
                "parameters": [{ "name": "sid", "in": "cookie", "schema": { "type": "string" } }],
                "responses": { "200": { "description": "ok" } }
            } },
            "/health": { "get": { "operationId": "health", "security": [], "responses": { "200": { "description": "ok", "content": { "text/plain": { "schema": { "type": "string" } } } } } } }
        }
    })
}

type Requests = Arc<Mutex<Vec<HttpRequest>>>;

fn import() -> (codemode_tools::ToolSet, Vec<codemode_tools::openapi::Skipped>, Requests) {
    let requests: Requests = Arc::default();
    let seen = Arc::clone(&requests);
    let imported = from_spec(&spec(), move |request: HttpRequest, _ctx| {
        seen.lock().unwrap().push(request);
        async { Ok(json!({ "ok": true })) }
    })
    .unwrap();
    let tools = Namespace::new().namespace("petstore", imported.namespace).build().unwrap();
    (tools, imported.skipped, requests)
}

#[test]
fn tools_and_skipped() {
    let (tools, skipped, _) = import();
    let mut out = String::new();
    for t in tools.catalog() {
        out.push_str(&format!("{}\n  {}\n", t.path, t.signature.replace('\n', "\n  ")));
    }
    out.push_str("skipped:\n");
    for s in &skipped {
        out.push_str(&format!("  {}: {}\n", s.operation, s.reason));
    }
    insta::assert_snapshot!(out);
}

#[test]
fn calls_become_requests() {
    let (tools, _, requests) = import();
    let call = |path: &str, args: Value| {
        block_on(tools.get(path).unwrap().invoke(args, CallContext::new("r:1", path)))
    };
    call("petstore.pets.list", json!({ "limit": 5, "tags": ["a b", "c"], "X-Trace": "t1" })).unwrap();
    call("petstore.pets.get", json!({ "petId": "a/b c" })).unwrap();
    call("petstore.pets.create", json!({ "body": { "name": "Rex" } })).unwrap();
    let err = call("petstore.pets.get", json!({})).unwrap_err();
    assert_eq!(err.kind(), ToolErrorKind::InvalidInput);
    assert_eq!(err.message(), "at input.petId: expected a value (required), got undefined");
    let err = call("petstore.pets.get", json!({ "petId": { "x": 1 } })).unwrap_err();
    assert_eq!(err.kind(), ToolErrorKind::InvalidInput);
    let requests = requests.lock().unwrap();
    assert_eq!(requests.len(), 3);
    assert_eq!(requests[0].method, "GET");
    assert_eq!(requests[0].path, "/pets");
    assert_eq!(
        requests[0].query,
        [("limit".into(), "5".into()), ("tags".into(), "a b".into()), ("tags".into(), "c".into())]
    );
    assert_eq!(requests[0].headers, [("X-Trace".to_owned(), "t1".to_owned())]);
    assert_eq!(requests[0].security, [vec!["apiKey".to_owned()]]);
    assert_eq!(requests[1].path, "/pets/a%2Fb%20c");
    assert_eq!(requests[1].path_template, "/pets/{petId}");
    assert_eq!(requests[2].method, "POST");
    assert_eq!(requests[2].body, Some(json!({ "name": "Rex" })));
    assert_eq!(requests[2].operation_id, "pets.create");
}

#[test]
fn documents_without_paths_are_errors() {
    assert!(from_spec(&json!({ "openapi": "3.1.0" }), |_, _| async { Ok(Value::Null) }).is_err());
    let empty = from_spec(&json!({ "paths": {} }), |_, _| async { Ok(Value::Null) }).unwrap();
    assert!(empty.namespace.is_empty());
}
