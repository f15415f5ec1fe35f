//! QuickJS (the `rquickjs` crate) running the workloads with the same demo tools, for comparison.
//! Tool calls go through one native function, `__tool(path, inputJson) -> outputJson`.

use rquickjs::{Context, Function, Runtime};

use crate::{tool_bridge, wrap_for_engine};

/// One QuickJS runtime and context with the demo tools installed; reused across runs.
pub struct Engine {
    runtime: Runtime,
    context: Context,
}

impl Engine {
    pub fn new() -> Result<Self, String> {
        let runtime = Runtime::new().map_err(|e| format!("QuickJS runtime: {e}"))?;
        let context = Context::full(&runtime).map_err(|e| format!("QuickJS context: {e}"))?;
        context.with(|ctx| -> Result<(), String> {
            let bridge = Function::new(ctx.clone(), |path: String, input: String| tool_bridge(&path, &input))
                .map_err(|e| format!("QuickJS __tool: {e}"))?;
            ctx.globals().set("__tool", bridge).map_err(|e| format!("QuickJS __tool: {e}"))
        })?;
        Ok(Self { runtime, context })
    }

    /// Runs one program body; its result as JSON text, or the failure.
    pub fn run(&self, body: &str) -> Result<String, String> {
        let source = wrap_for_engine(body);
        self.context.with(|ctx| ctx.eval::<(), _>(source)).map_err(|e| format!("QuickJS eval: {e}"))?;
        loop {
            match self.runtime.execute_pending_job() {
                Ok(true) => {}
                Ok(false) => break,
                Err(e) => return Err(format!("QuickJS job: {e:?}")),
            }
        }
        self.context.with(|ctx| {
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
}
