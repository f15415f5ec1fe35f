//! Errors: [`ToolError`] (what a tool call ends with, split into a model-visible message and a
//! private cause for the host) and [`BuildError`] (what registering tools can fail with).

use std::fmt;
use std::sync::Arc;

/// A boxed error that can cross threads: the private cause of a [`ToolError`].
pub type Cause = Arc<dyn std::error::Error + Send + Sync + 'static>;

/// What kind of failure a tool call ended with. The facade maps these onto diagnostic kinds
/// (`InvalidToolInput`, `InvalidToolOutput`, `ToolFailure`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ToolErrorKind {
    /// The input failed decoding or validation against the tool's input schema.
    InvalidInput,
    /// The handler's output failed encoding or validation against the output schema.
    InvalidOutput,
    /// The tool declined the request (authorization, policy, precondition). The message says why.
    Refused,
    /// The tool tried and failed; the message is meant for the model.
    Failure,
    /// An unexpected host failure. Its message is sanitized: the model sees a generic text and the
    /// original error stays in the private cause (see `reference-agents.md`).
    Internal,
}

impl ToolErrorKind {
    /// The stable name of the kind, as used in logs and tests.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::InvalidInput => "InvalidInput",
            Self::InvalidOutput => "InvalidOutput",
            Self::Refused => "Refused",
            Self::Failure => "Failure",
            Self::Internal => "Internal",
        }
    }
}

/// The model-visible message used for [`ToolErrorKind::Internal`] failures.
pub const INTERNAL_MESSAGE: &str = "The tool failed with an internal error.";

/// The error a tool call ends with.
///
/// `message` is shown to the model; `cause` never is: it is for the host's logs. Any
/// `std::error::Error` converts into a `ToolError` of kind [`ToolErrorKind::Internal`] with a
/// sanitized message, so `?` inside a handler never leaks host details by accident. To show a
/// message to the model, build the error explicitly with [`ToolError::failure`] or
/// [`ToolError::refused`].
///
/// `ToolError` deliberately does not implement `std::error::Error`: that is what makes the
/// blanket `From<E: Error>` conversion possible (the same trade-off `anyhow::Error` makes).
#[derive(Clone)]
pub struct ToolError {
    kind: ToolErrorKind,
    message: String,
    cause: Option<Cause>,
}

impl ToolError {
    /// An error of any kind with a model-visible message.
    pub fn new(kind: ToolErrorKind, message: impl Into<String>) -> Self {
        Self { kind, message: message.into(), cause: None }
    }

    /// The tool failed; `message` is shown to the model.
    pub fn failure(message: impl Into<String>) -> Self {
        Self::new(ToolErrorKind::Failure, message)
    }

    /// The tool refused the request; `message` (the reason) is shown to the model.
    pub fn refused(message: impl Into<String>) -> Self {
        Self::new(ToolErrorKind::Refused, message)
    }

    /// The input did not match the tool's input schema.
    pub fn invalid_input(message: impl Into<String>) -> Self {
        Self::new(ToolErrorKind::InvalidInput, message)
    }

    /// The output did not match the tool's output schema.
    pub fn invalid_output(message: impl Into<String>) -> Self {
        Self::new(ToolErrorKind::InvalidOutput, message)
    }

    /// An unexpected host failure: the model sees [`INTERNAL_MESSAGE`], the host gets `cause`.
    pub fn internal(cause: impl Into<Box<dyn std::error::Error + Send + Sync + 'static>>) -> Self {
        Self::new(ToolErrorKind::Internal, INTERNAL_MESSAGE).with_cause(cause)
    }

    /// Attaches a private cause (for the host's logs, never shown to the model).
    #[must_use]
    pub fn with_cause(
        mut self,
        cause: impl Into<Box<dyn std::error::Error + Send + Sync + 'static>>,
    ) -> Self {
        self.cause = Some(Arc::from(cause.into()));
        self
    }

    /// The kind of failure.
    pub fn kind(&self) -> ToolErrorKind {
        self.kind
    }

    /// The model-visible message.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The message in the reference runtime's framing, for a diagnostic about the tool at
    /// `path`: `Invalid input for tool 'orders.lookup': at input.id: expected string, got integer`,
    /// `Invalid output from tool 'orders.lookup': …`; other kinds are the message itself.
    pub fn model_message(&self, path: &str) -> String {
        match self.kind {
            ToolErrorKind::InvalidInput => format!("Invalid input for tool '{path}': {}", self.message),
            ToolErrorKind::InvalidOutput => format!("Invalid output from tool '{path}': {}", self.message),
            _ => self.message.clone(),
        }
    }

    /// The private cause, if any. Never show this to the model.
    pub fn cause(&self) -> Option<&(dyn std::error::Error + Send + Sync + 'static)> {
        self.cause.as_deref()
    }
}

impl<E: std::error::Error + Send + Sync + 'static> From<E> for ToolError {
    fn from(error: E) -> Self {
        Self::internal(error)
    }
}

impl fmt::Debug for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolError")
            .field("kind", &self.kind)
            .field("message", &self.message)
            .field("cause", &self.cause.as_ref().map(|c| c.to_string()))
            .finish()
    }
}

/// Displays only the model-visible message: printing a `ToolError` can never leak its cause.
impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// Why a [`crate::ToolSet`] could not be built. Each variant names the offending path.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum BuildError {
    /// A name (or a segment of a dotted name) is empty. `path` is where it appeared.
    EmptyName { path: String },
    /// Two entries claim the same path.
    Duplicate { path: String },
    /// One path is both a tool and a namespace.
    ToolAndNamespace { path: String },
    /// Two namespace declarations for one path carry different descriptions.
    ConflictingDescription { path: String },
    /// A name that cannot be a property safely (`__proto__`).
    ReservedName { path: String },
    /// Nesting deeper than [`crate::MAX_PATH_DEPTH`].
    TooDeep { path: String },
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::EmptyName { path } if path.is_empty() => write!(f, "tool name is empty"),
            Self::EmptyName { path } => write!(f, "tool name '{path}' contains an empty segment"),
            Self::Duplicate { path } => write!(f, "duplicate tool or namespace '{path}'"),
            Self::ToolAndNamespace { path } => write!(f, "'{path}' is both a tool and a namespace"),
            Self::ConflictingDescription { path } => {
                write!(f, "namespace '{path}' is described twice with different descriptions")
            }
            Self::ReservedName { path } => write!(f, "'{path}' uses a reserved name"),
            Self::TooDeep { path } => write!(f, "'{path}' is nested too deeply"),
        }
    }
}

impl std::error::Error for BuildError {}
