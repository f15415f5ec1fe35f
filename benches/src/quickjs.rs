//! QuickJS (the `rquickjs` crate) running the workloads with the same demo tools, for comparison,
//! as a host would run one program: a fresh `Runtime` and full `Context` per run, the tools installed
//! as native functions (`tools.orders.lookup`, ...) that read their input as a JS value and build
//! their result with QuickJS's object API (no JSON text between the host and the engine).

use rquickjs::function::Opt;
use rquickjs::{Array, Ctx, Exception, Function, Object, Promise, Runtime, Type, Value};
use serde_json::Value as Json;

use crate::{TOOLS, demo_tool, wrap_for_engine};

/// Runs one program body in a fresh runtime and context; its result as JSON text, or the failure.
pub fn run(body: &str) -> Result<String, String> {
    let runtime = Runtime::new().map_err(|e| format!("QuickJS runtime: {e}"))?;
    let context = rquickjs::Context::full(&runtime).map_err(|e| format!("QuickJS context: {e}"))?;
    let source = wrap_for_engine(body);
    context.with(|ctx| -> Result<(), String> {
        install_tools(&ctx).map_err(|e| format!("QuickJS tools: {e}"))?;
        ctx.eval::<(), _>(source).map_err(|e| format!("QuickJS eval: {e}"))
    })?;
    loop {
        match runtime.execute_pending_job() {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => return Err(format!("QuickJS job: {e:?}")),
        }
    }
    context.with(|ctx| {
        let globals = ctx.globals();
        if let Some(error) = globals.get::<_, Option<String>>("__error").map_err(|e| e.to_string())? {
            return Err(error);
        }
        globals
            .get::<_, Option<String>>("__result")
            .map_err(|e| e.to_string())?
            .ok_or_else(|| "the program did not finish".to_string())
    })
}

/// The global `tools` object: one object per namespace, one native function per tool.
fn install_tools<'js>(ctx: &Ctx<'js>) -> rquickjs::Result<()> {
    let tools = Object::new(ctx.clone())?;
    for (namespace, name, path) in TOOLS {
        let group = match tools.get::<_, Option<Object<'js>>>(*namespace)? {
            Some(group) => group,
            None => {
                let group = Object::new(ctx.clone())?;
                tools.set(*namespace, group.clone())?;
                group
            }
        };
        group.set(*name, tool_function(ctx, path)?)?;
    }
    ctx.globals().set("tools", tools)
}

/// A tool as a native function returning a promise: resolved with the result built as JS objects,
/// or rejected with an `Error` carrying the tool's message.
fn tool_function<'js>(ctx: &Ctx<'js>, path: &'static str) -> rquickjs::Result<Function<'js>> {
    Function::new(
        ctx.clone(),
        move |ctx: Ctx<'js>, input: Opt<Value<'js>>| -> rquickjs::Result<Promise<'js>> {
            let input = match input.0 {
                Some(value) => to_json(&value)?,
                None => Json::Null,
            };
            let (promise, resolve, reject) = ctx.promise()?;
            match demo_tool(path, &input) {
                Ok(output) => resolve.call::<_, ()>((from_json(&ctx, &output)?,))?,
                Err(message) => reject.call::<_, ()>((Exception::from_message(ctx.clone(), &message)?,))?,
            }
            Ok(promise)
        },
    )
}

/// A JSON value built as QuickJS values (objects with `Object::new`, arrays with `Array::new`).
fn from_json<'js>(ctx: &Ctx<'js>, json: &Json) -> rquickjs::Result<Value<'js>> {
    Ok(match json {
        Json::Null => Value::new_null(ctx.clone()),
        Json::Bool(b) => Value::new_bool(ctx.clone(), *b),
        Json::Number(n) => match n.as_i64().and_then(|i| i32::try_from(i).ok()) {
            Some(i) => Value::new_int(ctx.clone(), i),
            None => Value::new_float(ctx.clone(), n.as_f64().unwrap_or(f64::NAN)),
        },
        Json::String(s) => rquickjs::String::from_str(ctx.clone(), s)?.into_value(),
        Json::Array(items) => {
            let array = Array::new(ctx.clone())?;
            for (i, item) in items.iter().enumerate() {
                array.set(i, from_json(ctx, item)?)?;
            }
            array.into_value()
        }
        Json::Object(map) => {
            let object = Object::new(ctx.clone())?;
            for (key, value) in map {
                object.set(key.as_str(), from_json(ctx, value)?)?;
            }
            object.into_value()
        }
    })
}

/// A QuickJS value read into JSON (as `JSON.stringify` would keep it: functions and `undefined`
/// properties dropped, other non-JSON values as `null`).
fn to_json(value: &Value<'_>) -> rquickjs::Result<Json> {
    Ok(match value.type_of() {
        Type::Bool => Json::Bool(value.as_bool().unwrap_or(false)),
        Type::Int => Json::from(value.as_int().unwrap_or(0)),
        Type::Float => {
            value.as_float().and_then(serde_json::Number::from_f64).map_or(Json::Null, Json::Number)
        }
        Type::String => Json::String(value.get::<String>()?),
        Type::Array => {
            let array: Array<'_> = value.get()?;
            let mut items = Vec::with_capacity(array.len());
            for item in array.iter::<Value<'_>>() {
                items.push(to_json(&item?)?);
            }
            Json::Array(items)
        }
        Type::Object | Type::Exception => {
            let object: Object<'_> = value.get()?;
            let mut map = serde_json::Map::new();
            for prop in object.props::<String, Value<'_>>() {
                let (key, item) = prop?;
                if !matches!(item.type_of(), Type::Undefined | Type::Function | Type::Constructor) {
                    map.insert(key, to_json(&item)?);
                }
            }
            Json::Object(map)
        }
        _ => Json::Null,
    })
}
