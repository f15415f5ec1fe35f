//! Boa (`boa_engine`) running the workloads with the same demo tools, for comparison, as a host
//! would run one program: a fresh `Context` per run, the tools installed as native functions
//! (`tools.orders.lookup`, ...) that read their input with `JsValue::to_json` and build their result
//! with `JsValue::from_json` (Boa's own conversion: `JsObject`s and arrays built natively, no JSON
//! text between the host and the engine).

use boa_engine::object::ObjectInitializer;
use boa_engine::property::Attribute;
use boa_engine::{
    Context, JsNativeError, JsResult, JsString, JsValue, NativeFunction, Source, object::builtins::JsPromise,
};
use serde_json::Value as Json;

use crate::{TOOLS, demo_tool, wrap_for_engine};

/// Runs one program body in a fresh context; its result as JSON text, or the failure.
pub fn run(body: &str) -> Result<String, String> {
    let mut context = Context::default();
    install_tools(&mut context).map_err(|e| format!("Boa tools: {e}"))?;
    let source = wrap_for_engine(body);
    context.eval(Source::from_bytes(&source)).map_err(|e| format!("Boa eval: {e}"))?;
    context.run_jobs().map_err(|e| format!("Boa jobs: {e}"))?;
    if let Some(error) = global_string(&mut context, "__error")? {
        return Err(error);
    }
    global_string(&mut context, "__result")?.ok_or_else(|| "the program did not finish".to_string())
}

fn global_string(context: &mut Context, name: &str) -> Result<Option<String>, String> {
    let value = context
        .global_object()
        .get(JsString::from(name), context)
        .map_err(|e| format!("Boa: reading {name}: {e}"))?;
    Ok(value.as_string().map(|s| s.to_std_string_escaped()))
}

/// The global `tools` object: one object per namespace, one native function per tool.
fn install_tools(context: &mut Context) -> JsResult<()> {
    let mut groups = Vec::new();
    for (namespace, _, _) in TOOLS {
        if groups.iter().any(|(n, _)| n == namespace) {
            continue;
        }
        let mut group = ObjectInitializer::new(context);
        for (_, name, path) in TOOLS.iter().filter(|(n, _, _)| n == namespace) {
            group.function(tool_function(path), JsString::from(*name), 1);
        }
        groups.push((*namespace, group.build()));
    }
    let mut tools = ObjectInitializer::new(context);
    for (namespace, group) in groups {
        tools.property(JsString::from(namespace), group, Attribute::all());
    }
    let tools = tools.build();
    context.register_global_property(JsString::from("tools"), tools, Attribute::all())
}

/// A tool as a native function returning a promise: resolved with the result built as Boa
/// objects, or rejected with an `Error` carrying the tool's message.
fn tool_function(path: &'static str) -> NativeFunction {
    NativeFunction::from_copy_closure(move |_this: &JsValue, args: &[JsValue], context: &mut Context| {
        let input = match args.first() {
            Some(value) => value.to_json(context)?.unwrap_or(Json::Null),
            None => Json::Null,
        };
        let promise = match demo_tool(path, &input) {
            Ok(output) => {
                let value = JsValue::from_json(&output, context)?;
                JsPromise::resolve(value, context)?
            }
            Err(message) => JsPromise::reject(JsNativeError::error().with_message(message), context)?,
        };
        Ok(promise.into())
    })
}
