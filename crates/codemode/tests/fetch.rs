//! The shipped `fetch` extension against a local HTTP server this test starts, with the host's
//! own (minimal) HTTP client and a deny-by-default URL policy.

#![allow(clippy::expect_used, clippy::unwrap_used)]

use std::future::Future;
use std::pin::Pin;

use codemode::fetch::{HttpClient, HttpRequest, HttpResponse, UrlPolicy};
use codemode::{CallContext, CodeMode, ToolError};
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Answers every request with its method, path and body as JSON; `/missing` is a 404.
async fn serve(listener: tokio::net::TcpListener) {
    loop {
        let Ok((mut stream, _)) = listener.accept().await else { return };
        tokio::spawn(async move {
            let mut data = Vec::new();
            let mut buf = [0u8; 4096];
            // Read the head, then as much body as Content-Length says.
            loop {
                let Ok(n) = stream.read(&mut buf).await else { return };
                if n == 0 {
                    break;
                }
                data.extend_from_slice(&buf[..n]);
                let text = String::from_utf8_lossy(&data);
                if let Some(end) = text.find("\r\n\r\n") {
                    let length = text[..end]
                        .lines()
                        .find_map(|l| {
                            l.to_ascii_lowercase()
                                .strip_prefix("content-length:")
                                .map(|v| v.trim().to_string())
                        })
                        .and_then(|v| v.parse::<usize>().ok())
                        .unwrap_or(0);
                    if data.len() >= end + 4 + length {
                        break;
                    }
                }
            }
            let text = String::from_utf8_lossy(&data).to_string();
            let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
            let mut parts = head.split_whitespace();
            let (method, path) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
            let status = if path.ends_with("/missing") { "404 Not Found" } else { "200 OK" };
            let reply = json!({ "method": method, "path": path, "body": body }).to_string();
            let response = format!(
                "HTTP/1.0 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{reply}",
                reply.len()
            );
            let _ = stream.write_all(response.as_bytes()).await;
        });
    }
}

/// The host's client: HTTP/1.0 over a TCP stream, http:// only.
struct TinyClient;

impl HttpClient for TinyClient {
    fn send(
        &self,
        request: HttpRequest,
        _ctx: CallContext,
    ) -> Pin<Box<dyn Future<Output = Result<HttpResponse, ToolError>> + Send + 'static>> {
        Box::pin(async move {
            let rest = request.url.strip_prefix("http://").ok_or_else(|| ToolError::failure("http only"))?;
            let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
            let mut stream = tokio::net::TcpStream::connect(authority).await.map_err(ToolError::internal)?;
            let body = request.body.unwrap_or_default();
            let mut head = format!(
                "{} {} HTTP/1.0\r\nHost: {authority}\r\nContent-Length: {}\r\n",
                request.method,
                if path.is_empty() { "/" } else { path },
                body.len()
            );
            for (k, v) in &request.headers {
                head.push_str(&format!("{k}: {v}\r\n"));
            }
            head.push_str("\r\n");
            stream.write_all(head.as_bytes()).await.map_err(ToolError::internal)?;
            stream.write_all(body.as_bytes()).await.map_err(ToolError::internal)?;
            let mut response = String::new();
            stream.read_to_string(&mut response).await.map_err(ToolError::internal)?;
            let (head, body) =
                response.split_once("\r\n\r\n").ok_or_else(|| ToolError::failure("bad response"))?;
            let mut lines = head.lines();
            let status = lines
                .next()
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|s| s.parse().ok())
                .unwrap_or(0);
            let headers = lines
                .filter_map(|l| l.split_once(':'))
                .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
                .collect();
            Ok(HttpResponse { status, headers, body: body.to_string() })
        })
    }
}

#[test]
fn fetch_reaches_allowed_urls_through_the_hosts_client_and_nothing_else() {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    rt.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(serve(listener));
        let runtime = CodeMode::builder()
            .extension(codemode::fetch::extension(TinyClient))
            .before_call(UrlPolicy::deny_all().allow(&format!("{base}/api/")).into_hook())
            .limits(codemode::Limits::default().timeout(std::time::Duration::from_secs(10)))
            .build()
            .unwrap();
        let source = format!(
            r#"
            const get = await fetch("{base}/api/items?x=1");
            const post = await fetch("{base}/api/items", {{ method: "post", headers: {{ "X-A": "1" }}, body: JSON.stringify({{ n: 1 }}) }});
            const missing = await fetch("{base}/api/missing");
            let denied = [];
            for (const url of ["{base}/admin", "http://example.com/api/", "{base}/api/../admin"]) {{
                try {{ await fetch(url) }} catch (e) {{ denied.push(e.message) }}
            }}
            return [JSON.parse(get.body), get.ok, get.headers["content-type"], JSON.parse(post.body), missing.status, missing.ok, denied]
        "#
        );
        let r = runtime.execute(&source).await;
        let value = r.value.clone().unwrap_or_default();
        assert_eq!(value[0], json!({ "method": "GET", "path": "/api/items?x=1", "body": "" }), "{r:?}");
        assert_eq!(value[1], json!(true));
        assert_eq!(value[2], json!("application/json"));
        assert_eq!(value[3], json!({ "method": "POST", "path": "/api/items", "body": "{\"n\":1}" }));
        assert_eq!(value[4], json!(404));
        assert_eq!(value[5], json!(false));
        let denied: Vec<String> = serde_json::from_value(value[6].clone()).unwrap();
        assert_eq!(denied.len(), 3, "{denied:?}");
        assert!(denied.iter().all(|m| m.ends_with("is not allowed by the host's URL policy")), "{denied:?}");
        // Extension calls are not tool calls.
        assert!(r.tool_calls.is_empty());
    });
}
