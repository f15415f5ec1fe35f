//! Boa (`boa_engine`) running the workloads with the same demo tools, for comparison.
//! Tool calls go through one native function, `__tool(path, inputJson) -> outputJson`.

use boa_engine::{Context, JsResult, JsString, JsValue, NativeFunction, Source};

use crate::{tool_bridge, wrap_for_engine};

/// One Boa context with the demo tools installed; reused across runs.
pub struct Engine {
    context: Context,
}

fn tool(_this: &JsValue, args: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
    let path = args.first().cloned().unwrap_or_default().to_string(context)?.to_std_string_escaped();
    let input = args.get(1).cloned().unwrap_or_default().to_string(context)?.to_std_string_escaped();
    Ok(JsValue::from(JsString::from(tool_bridge(&path, &input).as_str())))
}

fn global_string(context: &mut Context, name: &str) -> Result<Option<String>, String> {
    let value = context
        .global_object()
        .get(JsString::from(name), context)
        .map_err(|e| format!("Boa: reading {name}: {e}"))?;
    Ok(value.as_string().map(|s| s.to_std_string_escaped()))
}

impl Engine {
    pub fn new() -> Result<Self, String> {
        let mut context = Context::default();
        context
            .register_global_callable(JsString::from("__tool"), 2, NativeFunction::from_fn_ptr(tool))
            .map_err(|e| format!("Boa __tool: {e}"))?;
        Ok(Self { context })
    }

    /// Runs one program body; its result as JSON text, or the failure.
    pub fn run(&mut self, body: &str) -> Result<String, String> {
        let source = wrap_for_engine(body);
        self.context.eval(Source::from_bytes(&source)).map_err(|e| format!("Boa eval: {e}"))?;
        self.context.run_jobs().map_err(|e| format!("Boa jobs: {e}"))?;
        if let Some(error) = global_string(&mut self.context, "__error")? {
            return Err(error);
        }
        global_string(&mut self.context, "__result")?.ok_or_else(|| "the program did not finish".to_string())
    }
}
