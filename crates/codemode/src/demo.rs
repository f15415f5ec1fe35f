//! Built-in demo tools, the same ones the benchmark workloads and the conformance suite use.
//!
//! - `orders.lookup({ id })` → `{ id, status, total, customer }` where `n` is the number made of the
//!   digits in `id` (0 if none): status `"open"` when `n` is even else `"complete"`,
//!   total `(n * 17) % 100 + 0.5`, customer `"c" + n % 5`.
//! - `data.records({ n })` → `{ records: [...] }`, `n` records (about 1 MB of JSON at 5,000).
//! - `demo.echo(value)` → `value`.
//! - `demo.fail({ message })` → fails with that message.
//! - `demo.sleep({ ms, value })` → `value` after `ms` milliseconds.
//! - `demo.approve({ action })` → `{ approved, by? }`: durable; asks a person, so it suspends the
//!   run at once (`ctx.suspend()` in `start`) and the host resumes it with the decision. A run
//!   that cannot be suspended gets a tool error saying so.
//! - `demo.job({ ms, value })` → `value` after `ms` milliseconds, as durable work: `start`
//!   returns the handle `{ job: <key>, ms, value }` at once and `attach` waits for it, so a run
//!   waiting on jobs can be suspended and the host can finish them from the handle.

use std::time::Duration;

use codemode_tools::{Durable, Namespace, Tool, ToolError};
use serde_json::{Map, Value, json};

use crate::Builder;

/// A builder preloaded with the demo tools.
pub fn builder() -> Builder {
    Builder::default()
        .namespace(
            "orders",
            Namespace::with_description("Purchases and their status").tool("lookup", lookup()),
        )
        .namespace("data", Namespace::with_description("Bulk data for analysis").tool("records", records()))
        .namespace(
            "demo",
            Namespace::with_description("Utilities for trying the runtime")
                .tool("echo", echo())
                .tool("fail", fail())
                .tool("sleep", sleep())
                .tool("approve", approve())
                .tool("job", job()),
        )
}

fn approve() -> Tool {
    Tool::durable(
        "Ask a person to approve an action; resolves with their decision",
        Some(json!({"type": "object", "properties": {"action": {"type": "string"}}, "required": ["action"]})),
        Some(json!({"type": "object", "properties": {
            "approved": {"type": "boolean"}, "by": {"type": "string"}
        }, "required": ["approved"]})),
        Durable::new(
            |_input: Value, ctx: codemode_tools::CallContext| async move {
                // A person answers when the host resumes the run with this call's outcome.
                let refusal = ctx.suspend().await;
                Err(ToolError::failure(format!("approval needs a person, and {}", refusal.message)))
            },
            |_handle: Value, _ctx| async move { Err(ToolError::failure("approvals have no work to attach to")) },
        ),
    )
}

fn job() -> Tool {
    Tool::durable(
        "Run a background job that takes ms milliseconds and returns value",
        Some(json!({"type": "object", "properties": {"ms": {"type": "integer"}, "value": {}}})),
        Some(json!({})),
        Durable::new(
            |input: Value, ctx: codemode_tools::CallContext| async move {
                let ms = input.get("ms").and_then(Value::as_u64).unwrap_or(0).min(600_000);
                Ok(
                    json!({ "job": ctx.key, "ms": ms, "value": input.get("value").cloned().unwrap_or(Value::Null) }),
                )
            },
            |handle: Value, _ctx| async move {
                let ms = handle.get("ms").and_then(Value::as_u64).unwrap_or(0).min(600_000);
                tokio::time::sleep(Duration::from_millis(ms)).await;
                Ok(handle.get("value").cloned().unwrap_or(Value::Null))
            },
        ),
    )
}

fn lookup() -> Tool {
    Tool::from_json(
        "Look up an order by ID",
        Some(json!({"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]})),
        Some(json!({"type": "object", "properties": {
            "id": {"type": "string"}, "status": {"type": "string"},
            "total": {"type": "number"}, "customer": {"type": "string"}
        }, "required": ["id", "status", "total", "customer"]})),
        |input: Value, _ctx| async move {
            let id = input.get("id").and_then(Value::as_str).unwrap_or_default().to_string();
            // The id's digits as a number (0 when there are none; wraps past u64).
            let n = id
                .bytes()
                .filter(u8::is_ascii_digit)
                .fold(0u64, |n, d| n.wrapping_mul(10).wrapping_add(u64::from(d - b'0')));
            let status = if n.is_multiple_of(2) { "open" } else { "complete" };
            let total = (n.wrapping_mul(17) % 100) as f64 + 0.5;
            // Built at its final size (`json!` grows the map one member at a time).
            let mut order = serde_json::Map::with_capacity(4);
            order.insert("id".into(), Value::String(id));
            order.insert("status".into(), Value::String(status.into()));
            order.insert("total".into(), total.into());
            let mut customer = String::with_capacity(2);
            customer.push('c');
            customer.push(char::from(b'0' + (n % 5) as u8));
            order.insert("customer".into(), Value::String(customer));
            Ok(Value::Object(order))
        },
    )
}

fn records() -> Tool {
    Tool::from_json(
        "Generate n synthetic records",
        Some(json!({"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]})),
        Some(json!({"type": "object", "properties": {"records": {"type": "array"}}})),
        |input: Value, _ctx| async move {
            let n = input.get("n").and_then(Value::as_u64).unwrap_or(0).min(100_000);
            let statuses = ["open", "closed", "pending"];
            // Built in place, as a host would build a large result (the `json!` macro serializes
            // every field through `to_value`, which cost more than the rest of the run).
            let mut records = Vec::with_capacity(n as usize);
            for i in 0..n {
                let mut record = Map::with_capacity(7);
                record.insert("id".into(), Value::from(i));
                record.insert("title".into(), Value::String(format!("Record {i}")));
                record.insert("status".into(), Value::from(statuses[(i % 3) as usize]));
                record.insert("owner".into(), Value::String(format!("user{}", i % 40)));
                let tags = if i % 4 == 0 { vec!["priority".into(), "x".into()] } else { vec!["y".into()] };
                record.insert("tags".into(), Value::Array(tags));
                record.insert("score".into(), Value::from((i * 37) % 101));
                let mut meta = Map::with_capacity(2);
                meta.insert("created".into(), Value::from("2024-01-01T00:00:00Z"));
                meta.insert("n".into(), Value::from(i));
                record.insert("meta".into(), Value::Object(meta));
                records.push(Value::Object(record));
            }
            // Moved in: `json!` would copy the whole array through `to_value`.
            let mut result = Map::with_capacity(1);
            result.insert("records".into(), Value::Array(records));
            Ok(Value::Object(result))
        },
    )
}

fn echo() -> Tool {
    Tool::from_json("Return the input unchanged", None, Some(json!({})), |input: Value, _ctx| async move {
        Ok(input)
    })
}

fn fail() -> Tool {
    Tool::from_json(
        "Fail with the given message",
        Some(json!({"type": "object", "properties": {"message": {"type": "string"}}})),
        None,
        |input: Value, _ctx| async move {
            let message = input.get("message").and_then(Value::as_str).unwrap_or("failed").to_string();
            Err::<Value, _>(ToolError::failure(message))
        },
    )
}

fn sleep() -> Tool {
    Tool::from_json(
        "Wait ms milliseconds, then return value",
        Some(json!({"type": "object", "properties": {"ms": {"type": "integer"}, "value": {}}})),
        Some(json!({})),
        |input: Value, _ctx| async move {
            let ms = input.get("ms").and_then(Value::as_u64).unwrap_or(0).min(600_000);
            tokio::time::sleep(Duration::from_millis(ms)).await;
            Ok(input.get("value").cloned().unwrap_or(Value::Null))
        },
    )
}
