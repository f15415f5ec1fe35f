//! `codemode run --openapi`: a real OpenAPI document and its API served over HTTP by a small
//! server this test starts, called by a program through real HTTP requests.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::net::{TcpListener, TcpStream};
use std::process::{Command, Output, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};

const SPEC: &str = r##"{
  "openapi": "3.0.3",
  "info": { "title": "Pet Store", "version": "1.0.0", "description": "Pets and their owners" },
  "paths": {
    "/pets": {
      "get": {
        "operationId": "listPets",
        "summary": "List pets",
        "parameters": [
          { "name": "limit", "in": "query", "schema": { "type": "integer" } },
          { "name": "tag", "in": "query", "schema": { "type": "array", "items": { "type": "string" } } }
        ],
        "responses": { "200": { "description": "ok", "content": { "application/json": {
          "schema": { "type": "array", "items": { "$ref": "#/components/schemas/Pet" } } } } } }
      },
      "post": {
        "operationId": "createPet",
        "summary": "Create a pet",
        "requestBody": { "required": true, "content": { "application/json": {
          "schema": { "$ref": "#/components/schemas/Pet" } } } },
        "responses": { "201": { "description": "created", "content": { "application/json": {
          "schema": { "$ref": "#/components/schemas/Pet" } } } } }
      }
    },
    "/pets/{petId}": {
      "get": {
        "operationId": "getPet",
        "summary": "Get a pet by id",
        "parameters": [ { "name": "petId", "in": "path", "required": true, "schema": { "type": "string" } } ],
        "responses": { "200": { "description": "ok", "content": { "application/json": {
          "schema": { "$ref": "#/components/schemas/Pet" } } } } }
      }
    },
    "/slow": {
      "get": { "operationId": "slow", "responses": { "200": { "description": "ok", "content": { "text/plain": {} } } } }
    },
    "/upload": {
      "post": { "operationId": "upload", "requestBody": { "content": { "image/png": {} } },
        "responses": { "204": { "description": "done" } } }
    }
  },
  "components": { "schemas": { "Pet": { "type": "object", "required": ["name"],
    "properties": { "id": { "type": "integer", "readOnly": true }, "name": { "type": "string" }, "tag": { "type": "string" } } } } }
}"##;

/// One request as the server saw it.
#[derive(Debug, Clone)]
struct Seen {
    line: String,
    headers: Vec<String>,
    body: String,
}

/// Serves the API on a free port, one request per connection; returns the base URL and the
/// requests seen.
fn serve() -> (String, Arc<Mutex<Vec<Seen>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&seen);
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { continue };
            let log = Arc::clone(&log);
            std::thread::spawn(move || handle(stream, &log));
        }
    });
    (base, seen)
}

fn handle(stream: TcpStream, log: &Mutex<Vec<Seen>>) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut line = String::new();
    if reader.read_line(&mut line).is_err() {
        return;
    }
    let line = line.trim_end().to_owned();
    let mut headers = Vec::new();
    let mut length = 0usize;
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header).is_err() {
            return;
        }
        let header = header.trim_end().to_owned();
        if header.is_empty() {
            break;
        }
        if let Some(value) = header.to_ascii_lowercase().strip_prefix("content-length:") {
            length = value.trim().parse().unwrap_or(0);
        }
        headers.push(header);
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).unwrap();
    let body = String::from_utf8_lossy(&body).into_owned();
    log.lock().unwrap().push(Seen { line: line.clone(), headers: headers.clone(), body: body.clone() });
    let target = line.split(' ').nth(1).unwrap_or("");
    let (status, content_type, payload) = match (line.split(' ').next().unwrap_or(""), target) {
        ("GET", t) if t.starts_with("/pets?") => (
            "200 OK",
            "application/json",
            json!([{ "id": 1, "name": "Rex" }, { "id": 2, "name": "Tom" }]).to_string(),
        ),
        ("GET", "/pets/7") => ("200 OK", "application/json", json!({ "id": 7, "name": "Fido" }).to_string()),
        ("GET", t) if t.starts_with("/pets/") => {
            ("404 Not Found", "application/json", json!({ "message": "no such pet" }).to_string())
        }
        ("POST", "/pets") => {
            let mut pet: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
            pet["id"] = json!(3);
            ("201 Created", "application/json", pet.to_string())
        }
        ("GET", "/slow") => {
            std::thread::sleep(Duration::from_secs(3));
            ("200 OK", "text/plain", "late".to_owned())
        }
        _ => ("400 Bad Request", "text/plain", "unexpected".to_owned()),
    };
    let mut stream = stream;
    let _ = write!(
        stream,
        "HTTP/1.1 {status}\r\ncontent-type: {content_type}\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{payload}",
        payload.len()
    );
}

fn codemode(args: &[&str], program: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_codemode"))
        .args(args)
        .env("PET_TOKEN", "t0k")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("codemode starts");
    // A usage error exits before reading the program.
    let _ = child.stdin.take().unwrap().write_all(program.as_bytes());
    child.wait_with_output().unwrap()
}

fn spec_file(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("codemode-openapi-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("petstore.json");
    std::fs::write(&file, SPEC).unwrap();
    file
}

#[test]
fn a_program_calls_a_real_http_api_through_its_openapi_document() {
    let (base, seen) = serve();
    let spec = spec_file("calls");
    let spec_arg = spec.display().to_string();
    let out = codemode(
        &[
            "run",
            "-",
            "--openapi",
            &spec_arg,
            "--base-url",
            &base,
            "--header",
            "Authorization: Bearer ${PET_TOKEN}",
        ],
        r#"
        const [pet, pets] = await Promise.all([
          tools.pet_store.getPet({ petId: "7" }),
          tools.pet_store.listPets({ limit: 2, tag: ["a b", "c"] }),
        ]);
        const created = await tools.pet_store.createPet({ body: { name: "Rex" } });
        let missing;
        try { await tools.pet_store.getPet({ petId: "x/y" }); } catch (e) { missing = e.message; }
        return { pet, names: pets.map(p => p.name), created, missing };
        "#,
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let result: Value = serde_json::from_str(&stdout).unwrap_or_else(|_| panic!("{stdout}\n{stderr}"));
    assert_eq!(result["ok"], true, "{result}");
    let value = &result["value"];
    assert_eq!(value["pet"], json!({ "id": 7, "name": "Fido" }));
    assert_eq!(value["names"], json!(["Rex", "Tom"]));
    assert_eq!(value["created"], json!({ "id": 3, "name": "Rex" }));
    let missing = value["missing"].as_str().unwrap_or("");
    assert!(
        missing.contains("GET /pets/x%2Fy: HTTP 404 Not Found") && missing.contains("no such pet"),
        "{missing}"
    );
    assert_eq!(out.status.code(), Some(0));
    // The operation that cannot be a tool is reported, not guessed.
    assert!(stderr.contains("skipped OpenAPI operation pet_store: POST /upload (upload)"), "{stderr}");

    let seen = seen.lock().unwrap().clone();
    let lines: Vec<&str> = seen.iter().map(|s| s.line.as_str()).collect();
    assert!(lines.contains(&"GET /pets/7 HTTP/1.1"), "{lines:?}");
    assert!(lines.contains(&"GET /pets?limit=2&tag=a%20b&tag=c HTTP/1.1"), "{lines:?}");
    let post = seen.iter().find(|s| s.line.starts_with("POST /pets")).expect("the POST arrived");
    assert_eq!(serde_json::from_str::<Value>(&post.body).ok(), Some(json!({ "name": "Rex" })));
    assert!(
        post.headers.iter().any(|h| h.eq_ignore_ascii_case("content-type: application/json")),
        "{post:?}"
    );
    assert!(seen.iter().all(|s| s.headers.iter().any(|h| h == "authorization: Bearer t0k")), "{seen:?}");
}

#[test]
fn slow_answers_time_out_and_declarations_describe_the_api() {
    let (base, _) = serve();
    let spec = spec_file("slow");
    let spec_arg = spec.display().to_string();
    let out = codemode(
        &[
            "run",
            "-",
            "--openapi",
            &format!("pets={spec_arg}"),
            "--base-url",
            &base,
            "--http-timeout-ms",
            "300",
        ],
        "return await tools.pets.slow();",
    );
    let result: Value = serde_json::from_slice(&out.stdout).expect("result JSON");
    assert_eq!(result["error"]["kind"], "ToolFailure", "{result}");
    assert!(
        result["error"]["message"].as_str().unwrap_or("").contains("GET /slow: no answer within 300ms"),
        "{result}"
    );
    assert_eq!(out.status.code(), Some(1));

    let out = codemode(
        &["run", "--declarations", "--openapi", &format!("pets={spec_arg}"), "--base-url", &base],
        "",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("/** Pet Store: Pets and their owners */\n  pets: {"), "{text}");
    assert!(text.contains("/** Get a pet by id */\n    getPet(input: {"), "{text}");
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn bad_openapi_arguments_are_usage_errors() {
    let out = codemode(&["run", "-", "--openapi", "/does/not/exist.json"], "return 1");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read /does/not/exist.json"));

    let spec = spec_file("bad");
    let spec_arg = spec.display().to_string();
    // No --base-url and no servers in the document.
    let out = codemode(&["run", "-", "--openapi", &spec_arg], "return 1");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no --base-url given"));
    let out =
        codemode(&["run", "-", "--openapi", &spec_arg, "--base-url", "h", "--base-url", "i"], "return 1");
    assert_eq!(out.status.code(), Some(2));
    let not_a_document = spec.with_file_name("spec.yaml");
    std::fs::write(&not_a_document, "openapi: [3.0.0\npaths: {}\n").unwrap();
    let out = codemode(
        &["run", "-", "--openapi", &not_a_document.display().to_string(), "--base-url", "http://x"],
        "return 1",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is not a valid YAML OpenAPI document"));
    let out = codemode(&["run", "-", "--header", "no colon"], "return 1");
    assert_eq!(out.status.code(), Some(2));
    // A header goes to one named source; a secret is never sent to a source it was not meant for.
    let named = format!("pets={spec_arg}");
    let other = format!("more={spec_arg}");
    let two = [
        "run",
        "-",
        "--openapi",
        &named,
        "--openapi",
        &other,
        "--base-url",
        "http://a",
        "--base-url",
        "http://b",
    ];
    let out = codemode(&[&two[..], &["--header", "Authorization: x"]].concat(), "return 1");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("several HTTP sources"));
    let out = codemode(&[&two[..], &["--header", "nope=Authorization: x"]].concat(), "return 1");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no --upstream-url or --openapi named \"nope\""));
    let out =
        codemode(&[&two[..], &["--header", "more=Authorization: ${NOT_SET_ANYWHERE}"]].concat(), "return 1");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("NOT_SET_ANYWHERE is not set"));
    let out = codemode(&[&two[..], &["--header", "more=Authorization: ${PET_TOKEN}"]].concat(), "return 1");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
}

const VAULT: &str = r##"{
  "openapi": "3.0.3",
  "info": { "title": "Vault", "version": "1.0.0" },
  "components": { "securitySchemes": {
    "bearer": { "type": "http", "scheme": "bearer" },
    "key": { "type": "apiKey", "in": "query", "name": "api_key" },
    "basic": { "type": "http", "scheme": "basic" }
  } },
  "security": [ { "bearer": [] } ],
  "paths": {
    "/secret": { "get": { "operationId": "getSecret", "responses": { "200": { "description": "ok",
      "content": { "application/json": { "schema": { "type": "object" } } } } } } },
    "/keyed": { "get": { "operationId": "keyed", "security": [ { "key": [] } ], "responses": { "200": {
      "description": "ok", "content": { "application/json": { "schema": { "type": "object" } } } } } } },
    "/admin": { "get": { "operationId": "admin", "summary": "Administer", "security": [ { "basic": [] } ],
      "responses": { "200": { "description": "ok", "content": { "application/json": { "schema": { "type": "object" } } } } } } },
    "/public": { "get": { "operationId": "public", "security": [], "responses": { "200": { "description": "ok",
      "content": { "application/json": { "schema": { "type": "object" } } } } } } }
  }
}"##;

/// An API that wants `Authorization: Bearer t0k` on `/secret` and `api_key=k3y` on `/keyed`;
/// the request lines it saw.
fn serve_vault() -> (String, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&seen);
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { continue };
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut line = String::new();
            let _ = reader.read_line(&mut line);
            let mut authorized = false;
            loop {
                let mut header = String::new();
                if reader.read_line(&mut header).is_err() || header.trim().is_empty() {
                    break;
                }
                if header.trim().eq_ignore_ascii_case("authorization: Bearer t0k") {
                    authorized = true;
                }
            }
            let target = line.split(' ').nth(1).unwrap_or("").to_owned();
            log.lock().unwrap().push(target.clone());
            let (status, body) = match target.as_str() {
                "/secret" if authorized => ("200 OK", json!({ "secret": 42 })),
                "/keyed?api_key=k3y" => ("200 OK", json!({ "keyed": true })),
                "/public" => ("200 OK", json!({ "public": true })),
                _ => ("401 Unauthorized", json!({ "message": "who are you?" })),
            };
            let body = body.to_string();
            let mut stream = stream;
            let _ = write!(
                stream,
                "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    (base, seen)
}

#[test]
fn security_schemes_get_the_credentials_the_host_supplies_and_nothing_goes_out_without_them() {
    let (base, seen) = serve_vault();
    let dir = std::env::temp_dir().join(format!("codemode-openapi-{}-vault", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("vault.json");
    std::fs::write(&file, VAULT).unwrap();
    let source = format!("vault={}", file.display());
    let program = r#"
        const call = async (name) => { try { return await tools.vault[name]({}); } catch (e) { return e.message; } };
        return { secret: await call("getSecret"), keyed: await call("keyed"), admin: await call("admin"), public: await call("public") };
    "#;
    let out = codemode(
        &[
            "run",
            "-",
            "--openapi",
            &source,
            "--base-url",
            &base,
            "--auth",
            "vault.bearer=${PET_TOKEN}",
            "--auth",
            "vault.key=k3y",
        ],
        program,
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    let result: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|_| panic!("{stderr}"));
    let value = &result["value"];
    assert_eq!(value["secret"], json!({ "secret": 42 }), "{result}");
    assert_eq!(value["keyed"], json!({ "keyed": true }), "{result}");
    assert_eq!(value["public"], json!({ "public": true }), "{result}");
    let admin = value["admin"].as_str().unwrap_or("");
    assert!(admin.contains("GET /admin needs credentials for the security scheme basic"), "{admin}");
    assert!(admin.contains("the request was not sent"), "{admin}");
    // Reported at start, and the request never went out.
    assert!(
        stderr.contains(
            "OpenAPI operation without credentials (its calls fail): vault: GET /admin (admin) needs basic"
        ),
        "{stderr}"
    );
    assert!(!seen.lock().unwrap().iter().any(|t| t.starts_with("/admin")), "{:?}", seen.lock().unwrap());

    // Without credentials nothing authenticated is sent, and the declarations say so.
    seen.lock().unwrap().clear();
    let out = codemode(&["run", "-", "--openapi", &source, "--base-url", &base], program);
    let result: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        result["value"]["secret"]
            .as_str()
            .unwrap_or("")
            .contains("needs credentials for the security scheme bearer"),
        "{result}"
    );
    assert_eq!(*seen.lock().unwrap(), ["/public"]);
    let out = codemode(&["run", "--declarations", "--openapi", &source, "--base-url", &base], "");
    let declarations = String::from_utf8_lossy(&out.stdout);
    assert!(
        declarations
            .contains("[needs credentials (basic) that codemode was not given; calls fail] Administer"),
        "{declarations}"
    );

    // A credential for a scheme the document does not define is a usage error.
    let out =
        codemode(&["run", "-", "--openapi", &source, "--base-url", &base, "--auth", "vault.nope=x"], program);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("defines no security scheme \"nope\" (it defines: basic, bearer, key)")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

const PETS_YAML: &str = r#"
openapi: 3.0.3
info:
  title: Pets in YAML
  version: "1.0.0"
paths:
  /pets/{petId}:
    get:
      operationId: getPet
      summary: Get a pet by id
      parameters:
        - name: petId
          in: path
          required: true
          schema: { type: string }
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  name: { type: string }
"#;

#[test]
fn yaml_documents_are_read_and_bad_ones_are_refused_clearly() {
    let (base, _) = serve();
    let dir = std::env::temp_dir().join(format!("codemode-openapi-{}-yaml", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("pets.yaml");
    std::fs::write(&file, PETS_YAML).unwrap();
    let source = format!("pets={}", file.display());
    let out = codemode(
        &["run", "-", "--openapi", &source, "--base-url", &base],
        r#"return await tools.pets.getPet({ petId: "7" });"#,
    );
    let result: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|_| panic!("{}", String::from_utf8_lossy(&out.stderr)));
    assert_eq!(result["value"], json!({ "id": 7, "name": "Fido" }), "{result}");

    // Not YAML a document can be, and an alias bomb: refused at start, quickly, naming the file.
    let bad = dir.join("bad.yml");
    std::fs::write(&bad, "openapi: 3.0.3\npaths:\n  ? [a, b]\n  : {}\n").unwrap();
    let mut bomb = String::from("a: &a [x, x, x, x, x, x, x, x, x]\n");
    for (name, previous) in
        ["b", "c", "d", "e", "f", "g", "h", "i"].iter().zip(["a", "b", "c", "d", "e", "f", "g", "h"])
    {
        bomb.push_str(&format!("{name}: &{name} [*{previous}, *{previous}, *{previous}, *{previous}, *{previous}, *{previous}, *{previous}, *{previous}, *{previous}]\n"));
    }
    bomb.push_str("paths: {}\n");
    let bombed = dir.join("bomb.yaml");
    std::fs::write(&bombed, bomb).unwrap();
    for file in [&bad, &bombed] {
        let out = codemode(
            &["run", "-", "--openapi", &file.display().to_string(), "--base-url", &base],
            "return 1",
        );
        assert_eq!(out.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("is not a valid YAML OpenAPI document"), "{stderr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
