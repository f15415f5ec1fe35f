//! [`Tool`]: one host capability: description, schemas and an async handler, with the
//! decoding, validation and encoding that surround every call.

use std::any::{Any, TypeId};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use schemars::JsonSchema;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::context::CallContext;
use crate::durable::Durable;
use crate::error::ToolError;
use crate::validate::CompiledSchema;

/// A boxed, sendable future: what [`Tool::invoke`] returns.
pub type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send + 'static>>;

type Handler = dyn Fn(Value, CallContext) -> BoxFuture<Result<Value, ToolError>> + Send + Sync;

/// How a tool's schemas were given, which decides what [`Tool::invoke`] checks.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    /// Rust types: input is always decoded, output always encoded (the handler does both).
    Typed,
    /// JSON Schema documents: render-only unless validation was opted into.
    Json,
}

#[derive(Clone)]
struct Inner {
    description: String,
    title: Option<String>,
    // Schemas are shared, not copied: a call that validates its output holds the schema across
    // an await, and cloning a schema per call would cost time and (deep schemas) stack.
    input: Option<Arc<Value>>,
    output: Option<Arc<Value>>,
    /// The same schemas with their validators, compiled on the first checked call.
    input_check: Option<Arc<CompiledSchema>>,
    output_check: Option<Arc<CompiledSchema>>,
    annotations: Option<Value>,
    kind: Kind,
    validate_input: bool,
    validate_output: bool,
    handler: Arc<Handler>,
    /// Set for durable tools (see [`Tool::durable`]).
    durable: Option<Durable>,
    /// Host data attached by type (see [`Tool::with_extension`]).
    extensions: Vec<Arc<dyn Any + Send + Sync>>,
}

/// A tool: cheap to clone (an `Arc` inside), `Send + Sync`, callable concurrently.
#[derive(Clone)]
pub struct Tool {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for Tool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tool")
            .field("description", &self.inner.description)
            .field("input", &self.inner.input)
            .field("output", &self.inner.output)
            .finish_non_exhaustive()
    }
}

impl Tool {
    /// A tool described by JSON Schema documents.
    ///
    /// The schemas shape the model-visible signature. They do not check values unless
    /// [`Tool::validate_input`] / [`Tool::validate_output`] opt in. `None` as input means the
    /// tool takes no arguments (`()`); `None` as output renders `Promise<void>`.
    pub fn from_json<F, Fut>(
        description: impl Into<String>,
        input: Option<Value>,
        output: Option<Value>,
        handler: F,
    ) -> Self
    where
        F: Fn(Value, CallContext) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<Value, ToolError>> + Send + 'static,
    {
        let handler: Arc<Handler> = Arc::new(move |input, ctx| Box::pin(handler(input, ctx)));
        Self::from_parts(description.into(), input.map(Arc::new), output.map(Arc::new), Kind::Json, handler)
    }

    /// A tool with Rust input and output types.
    ///
    /// The input is checked against `I`'s schema (errors name the JSON path and what was
    /// expected) and decoded before the handler runs; the output is encoded to JSON and checked
    /// against `O`'s schema, and a failure of either is an `InvalidOutput` error. `O = ()`
    /// renders as `Promise<void>`.
    pub fn typed<I, O, F, Fut>(description: impl Into<String>, handler: F) -> Self
    where
        I: DeserializeOwned + JsonSchema + 'static,
        O: Serialize + JsonSchema + 'static,
        F: Fn(I, CallContext) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<O, ToolError>> + Send + 'static,
    {
        // `I = ()` takes no arguments: no input schema, and whatever the caller passes (the
        // facade passes `{}` for a call without arguments) decodes as `()`.
        let unit_input = TypeId::of::<I>() == TypeId::of::<()>();
        let input_schema = if unit_input { None } else { Some(schema_value::<I>()) };
        let output_schema =
            if TypeId::of::<O>() == TypeId::of::<()>() { None } else { Some(schema_value::<O>()) };
        let input_schema = input_schema.map(Arc::new);
        let output_schema = output_schema.map(Arc::new);
        let check = input_schema.clone().map(|s| Arc::new(CompiledSchema::new(s)));
        let check_output = output_schema.clone().map(|s| Arc::new(CompiledSchema::new(s)));
        let handler = Arc::new(handler);
        let handler: Arc<Handler> = Arc::new(move |raw: Value, ctx: CallContext| {
            // Validation first: it knows the JSON path and the expected type, which serde's
            // error messages do not carry for `from_value`.
            let raw = if unit_input { Value::Null } else { raw };
            if let Some(check) = &check
                && let Err(error) = check.check_at(&raw, "input")
            {
                return Box::pin(std::future::ready(Err(ToolError::invalid_input(error.to_string()))));
            }
            let input: I = match serde_json::from_value(raw) {
                Ok(input) => input,
                Err(error) => {
                    return Box::pin(std::future::ready(Err(ToolError::invalid_input(error.to_string()))));
                }
            };
            let future = handler(input, ctx);
            let check_output = check_output.clone();
            Box::pin(async move {
                let output = future.await?;
                let value = serde_json::to_value(&output)
                    .map_err(|error| ToolError::invalid_output(error.to_string()))?;
                // Encoding can still break the contract (a NaN becomes `null` where the schema
                // says number), so the encoded value is checked against `O`'s schema too.
                if let Some(schema) = &check_output
                    && let Err(error) = schema.check_at(&value, "output")
                {
                    return Err(ToolError::invalid_output(error.to_string()));
                }
                Ok(value)
            })
        });
        let mut tool =
            Self::from_parts(description.into(), input_schema, output_schema, Kind::Typed, handler);
        // A typed tool's input is always checked (inside the handler above).
        tool.inner_mut().validate_input = false;
        tool
    }

    /// A durable tool described by JSON Schema documents (see [`Durable`]): its work outlives the
    /// run, so a run waiting on it can be suspended and resumed elsewhere. Called directly
    /// ([`Tool::invoke`]), it starts the work and attaches to it.
    pub fn durable(
        description: impl Into<String>,
        input: Option<Value>,
        output: Option<Value>,
        durable: Durable,
    ) -> Self {
        let ops = durable.clone();
        let handler: Arc<Handler> = Arc::new(move |input, ctx: CallContext| {
            let ops = ops.clone();
            Box::pin(async move {
                let handle = ops.start(input, ctx.clone()).await?;
                ops.attach(handle, ctx).await
            })
        });
        let mut tool = Self::from_parts(
            description.into(),
            input.map(Arc::new),
            output.map(Arc::new),
            Kind::Json,
            handler,
        );
        tool.inner_mut().durable = Some(durable);
        tool
    }

    /// The durable operations, for a durable tool.
    pub fn durable_ops(&self) -> Option<&Durable> {
        self.inner.durable.as_ref()
    }

    /// Starts a durable tool's work: checks the input as [`Tool::invoke`] does, then calls
    /// `start`. A tool that is not durable fails.
    pub fn start_durable(&self, input: Value, ctx: CallContext) -> BoxFuture<Result<Value, ToolError>> {
        let Some(durable) = &self.inner.durable else {
            return Box::pin(std::future::ready(Err(ToolError::failure("this tool is not durable"))));
        };
        if let Err(error) = self.check_input(&input) {
            return Box::pin(std::future::ready(Err(error)));
        }
        durable.start(input, ctx)
    }

    /// Attaches to a durable tool's work by its handle; checks the output as [`Tool::invoke`]
    /// does.
    pub fn attach_durable(&self, handle: Value, ctx: CallContext) -> BoxFuture<Result<Value, ToolError>> {
        let Some(durable) = &self.inner.durable else {
            return Box::pin(std::future::ready(Err(ToolError::failure("this tool is not durable"))));
        };
        self.check_output(durable.attach(handle, ctx))
    }

    fn from_parts(
        description: String,
        input: Option<Arc<Value>>,
        output: Option<Arc<Value>>,
        kind: Kind,
        handler: Arc<Handler>,
    ) -> Self {
        Self {
            inner: Arc::new(Inner {
                description,
                title: None,
                input_check: input.clone().map(|s| Arc::new(CompiledSchema::new(s))),
                output_check: output.clone().map(|s| Arc::new(CompiledSchema::new(s))),
                input,
                output,
                annotations: None,
                kind,
                validate_input: false,
                validate_output: false,
                handler,
                durable: None,
                extensions: Vec::new(),
            }),
        }
    }

    fn inner_mut(&mut self) -> &mut Inner {
        Arc::make_mut(&mut self.inner)
    }

    /// Opts a JSON Schema tool into checking arguments against its input schema before the
    /// handler runs. Errors name the path, the expected type and the nearest valid property.
    /// (Typed tools always check their input.)
    #[must_use]
    pub fn validate_input(mut self, on: bool) -> Self {
        if self.inner.kind == Kind::Json {
            self.inner_mut().validate_input = on;
        }
        self
    }

    /// Opts into checking the handler's result against the output schema (`InvalidOutput`).
    #[must_use]
    pub fn validate_output(mut self, on: bool) -> Self {
        self.inner_mut().validate_output = on;
        self
    }

    /// Sets a human title (MCP `title`); it takes part in search.
    #[must_use]
    pub fn with_title(mut self, title: impl Into<String>) -> Self {
        self.inner_mut().title = Some(title.into());
        self
    }

    /// Attaches free-form annotations (MCP `annotations`), kept for the host.
    #[must_use]
    pub fn with_annotations(mut self, annotations: Value) -> Self {
        self.inner_mut().annotations = Some(annotations);
        self
    }

    /// Replaces the description.
    #[must_use]
    pub fn with_description(mut self, description: impl Into<String>) -> Self {
        self.inner_mut().description = description.into();
        self
    }

    /// Attaches a value of any type for whoever runs the tool to find with [`Tool::extension`]
    /// — a place for behaviour this crate does not model (durable-call handlers, rate limits,
    /// audit tags) without a dependency in either direction. One value per type; a second
    /// replaces the first.
    #[must_use]
    pub fn with_extension<T: Any + Send + Sync>(mut self, value: T) -> Self {
        let extensions = &mut self.inner_mut().extensions;
        extensions.retain(|e| !e.is::<T>());
        extensions.push(Arc::new(value));
        self
    }

    /// The value of type `T` attached with [`Tool::with_extension`].
    pub fn extension<T: Any + Send + Sync>(&self) -> Option<&T> {
        self.inner.extensions.iter().find_map(|e| e.downcast_ref::<T>())
    }

    /// The model-visible description.
    pub fn description(&self) -> &str {
        &self.inner.description
    }

    /// The optional title.
    pub fn title(&self) -> Option<&str> {
        self.inner.title.as_deref()
    }

    /// The input JSON Schema, if any.
    pub fn input_schema(&self) -> Option<&Value> {
        self.inner.input.as_deref()
    }

    /// The output JSON Schema, if any.
    pub fn output_schema(&self) -> Option<&Value> {
        self.inner.output.as_deref()
    }

    /// The annotations, if any.
    pub fn annotations(&self) -> Option<&Value> {
        self.inner.annotations.as_ref()
    }

    /// Whether the tool was built from Rust types.
    pub fn is_typed(&self) -> bool {
        self.inner.kind == Kind::Typed
    }

    /// Runs the tool: validates or decodes `input`, calls the handler, encodes and (if asked)
    /// validates the output. Many invocations may be in flight at once.
    pub fn invoke(&self, input: Value, ctx: CallContext) -> BoxFuture<Result<Value, ToolError>> {
        if let Err(error) = self.check_input(&input) {
            return Box::pin(std::future::ready(Err(error)));
        }
        self.check_output((self.inner.handler)(input, ctx))
    }

    /// The opted-in input check ([`Tool::validate_input`]).
    fn check_input(&self, input: &Value) -> Result<(), ToolError> {
        let inner = &self.inner;
        if inner.validate_input
            && let Some(schema) = &inner.input_check
            && let Err(error) = schema.check_at(input, "input")
        {
            return Err(ToolError::invalid_input(error.to_string()));
        }
        Ok(())
    }

    /// `future` with the opted-in output check ([`Tool::validate_output`]) after it.
    fn check_output(
        &self,
        future: BoxFuture<Result<Value, ToolError>>,
    ) -> BoxFuture<Result<Value, ToolError>> {
        if !self.inner.validate_output {
            return future;
        }
        let tool = self.clone();
        Box::pin(async move {
            let value = future.await?;
            tool.check_output_value(&value)?;
            Ok(value)
        })
    }

    /// The opted-in output check ([`Tool::validate_output`]) of a value this tool gave by another
    /// way than its handler (a durable call's outcome supplied on resume): `InvalidOutput` when it
    /// breaks the output schema, `Ok` when it does or the tool does not check.
    pub fn check_output_value(&self, value: &Value) -> Result<(), ToolError> {
        if !self.inner.validate_output {
            return Ok(());
        }
        match &self.inner.output_check {
            Some(schema) => {
                schema.check_at(value, "output").map_err(|error| ToolError::invalid_output(error.to_string()))
            }
            None => Ok(()),
        }
    }
}

/// The JSON Schema `schemars` generates for `T`, as a plain value.
fn schema_value<T: JsonSchema>() -> Value {
    schemars::SchemaGenerator::default().into_root_schema_for::<T>().to_value()
}
