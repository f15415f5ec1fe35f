//! Handing async tool calls to the caller's asyncio loop, cheaply.
//!
//! A run's VM runs on a tokio thread; an async Python tool must run on the loop. Handing each
//! call over with `pyo3-async-runtimes`' `into_future_with_locals` costs a GIL acquisition on
//! the tokio thread (while the loop thread may hold it), an `asyncio.Future`, a done callback and
//! a `call_soon_threadsafe` per call. Here the tokio thread only pushes the call onto a queue
//! (no GIL) and, when the queue was empty, writes one byte to a socket the loop watches
//! (`loop.add_reader`): every call that became ready before the loop woke up is started in that
//! one wake-up (`drain`, on the loop's thread, where the GIL is cheap), each as a task created
//! in the run's context. The outcome comes back through the call's `oneshot`, converted on the
//! loop's thread by the Python wrapper, so the tokio thread never needs the GIL for a call.
//!
//! Where the socket cannot be used (not Unix), the first call of a batch wakes the loop with
//! `call_soon_threadsafe(drain)` instead; batching still applies.

use std::sync::{Arc, Mutex};

use codemode::CallContext;
use codemode::tools::ToolError;
use pyo3::prelude::*;
use serde_json::Value as Json;

use crate::convert;
use crate::runtime::{PyCallContext, PyFn, RunData, TaskSlot};

/// One call waiting for the loop.
pub(crate) struct Pending {
    pub(crate) func: Arc<PyFn>,
    pub(crate) value: Json,
    pub(crate) ctx: CallContext,
    pub(crate) run: Arc<RunData>,
    pub(crate) reply: tokio::sync::oneshot::Sender<Result<Json, ToolError>>,
    pub(crate) task: TaskSlot,
}

/// The queue of one event loop and how to wake it.
pub(crate) struct Dispatch {
    queue: Mutex<Vec<Pending>>,
    /// The write end of the socket the loop watches (Unix).
    #[cfg(unix)]
    socket: std::os::unix::net::UnixStream,
    /// Else (or when the loop cannot watch sockets): `call_soon_threadsafe(drain)`.
    waker: Mutex<Option<Py<PyAny>>>,
    /// Whether the loop watches the socket.
    watched: std::sync::atomic::AtomicBool,
}

impl Dispatch {
    /// Queues a call; the first of a batch wakes the loop.
    pub(crate) fn push(&self, call: Pending) -> Result<(), ToolError> {
        let was_empty = {
            let mut queue =
                self.queue.lock().map_err(|_| ToolError::internal("the call queue is poisoned"))?;
            let was_empty = queue.is_empty();
            queue.push(call);
            was_empty
        };
        if was_empty {
            self.wake()?;
        }
        Ok(())
    }

    fn wake(&self) -> Result<(), ToolError> {
        #[cfg(unix)]
        if self.watched.load(std::sync::atomic::Ordering::Acquire) {
            use std::io::Write as _;
            return match (&self.socket).write(&[1]) {
                Ok(_) => Ok(()),
                // The socket's buffer is full: the loop has wake-ups enough pending.
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => Ok(()),
                Err(e) => Err(ToolError::internal(format!("waking the event loop failed: {e}"))),
            };
        }
        let waker = crate::attach(|py| {
            let waker = self.waker.lock().ok().and_then(|w| w.as_ref().map(|w| w.clone_ref(py)));
            match waker {
                Some(waker) => waker.bind(py).call0().map(|_| ()).map_err(|e| e.to_string()),
                None => Err("the event loop has no way to be woken".to_owned()),
            }
        });
        match waker {
            Some(Ok(())) => Ok(()),
            Some(Err(e)) => Err(ToolError::internal(format!("waking the event loop failed: {e}"))),
            None => Err(ToolError::internal("the Python interpreter is shutting down")),
        }
    }

    fn take(&self) -> Vec<Pending> {
        self.queue.lock().map(|mut q| std::mem::take(&mut *q)).unwrap_or_default()
    }
}

/// The loop's side of a [`Dispatch`]: on Unix `fileno()` for `loop.add_reader(fd, drain)`
/// (then `_watched()`), else `_set_waker(...)` with a callable doing
/// `loop.call_soon_threadsafe(drain)` (holding both weakly: the waker lives in the dispatcher).
#[pyclass(name = "Dispatcher", module = "codemode._native", frozen, weakref)]
pub(crate) struct PyDispatcher {
    pub(crate) shared: Arc<Dispatch>,
    #[cfg(unix)]
    read: std::os::unix::net::UnixStream,
}

#[pymethods]
impl PyDispatcher {
    #[new]
    fn new() -> PyResult<Self> {
        #[cfg(unix)]
        {
            let (read, socket) = std::os::unix::net::UnixStream::pair()?;
            read.set_nonblocking(true)?;
            socket.set_nonblocking(true)?;
            let shared = Dispatch {
                queue: Mutex::new(Vec::new()),
                socket,
                waker: Mutex::new(None),
                watched: std::sync::atomic::AtomicBool::new(false),
            };
            Ok(PyDispatcher { shared: Arc::new(shared), read })
        }
        #[cfg(not(unix))]
        {
            let shared = Dispatch {
                queue: Mutex::new(Vec::new()),
                waker: Mutex::new(None),
                watched: std::sync::atomic::AtomicBool::new(false),
            };
            Ok(PyDispatcher { shared: Arc::new(shared) })
        }
    }

    /// The socket to watch for wake-ups, or None where there is none.
    fn fileno(&self) -> Option<i64> {
        #[cfg(unix)]
        {
            use std::os::fd::AsRawFd as _;
            Some(i64::from(self.read.as_raw_fd()))
        }
        #[cfg(not(unix))]
        None
    }

    /// The loop watches `fileno()` now.
    fn _watched(&self) {
        self.shared.watched.store(true, std::sync::atomic::Ordering::Release);
    }

    /// How to wake the loop when it does not watch the socket.
    fn _set_waker(&self, waker: Py<PyAny>) {
        if let Ok(mut slot) = self.shared.waker.lock() {
            *slot = Some(waker);
        }
    }

    /// Starts every queued call as a task on the running loop (called by the loop).
    fn drain(&self, py: Python<'_>) {
        #[cfg(unix)]
        {
            use std::io::Read as _;
            let mut buf = [0u8; 256];
            while matches!((&self.read).read(&mut buf), Ok(n) if n == buf.len()) {}
        }
        for call in self.shared.take() {
            start(py, call);
        }
    }
}

/// Starts one call: its coroutine as a task created in the run's context. A call whose Rust
/// side is gone (the run ended meanwhile) is not started.
fn start(py: Python<'_>, call: Pending) {
    let Pending { func, value, ctx, run, reply, task } = call;
    if reply.is_closed() {
        return;
    }
    let context = run.locals.context(py);
    let event_loop = run.locals.event_loop(py);
    let Ok(pyctx) = Py::new(py, PyCallContext::with_reply(ctx, Some(run), reply, task.clone())) else {
        // The reply is dropped with it: the call ends as "ended without an outcome".
        return;
    };
    let started = (|| -> PyResult<()> {
        let arg = convert::to_py(py, &value)?;
        let coro = func.func.bind(py).call1((arg, pyctx.clone_ref(py)))?;
        let create = event_loop.getattr(pyo3::intern!(py, "create_task"))?;
        let created = context.call_method1(pyo3::intern!(py, "run"), (create, coro))?;
        if let Ok(mut slot) = task.lock() {
            *slot = Some(created.clone().unbind());
        }
        // The call was dropped while its task was being made: the Rust side may have looked
        // for the task before it was stored (see `CancelOnDrop`).
        if pyctx.get().abandoned() {
            created.call_method0(pyo3::intern!(py, "cancel"))?;
        }
        Ok(())
    })();
    if let Err(err) = started {
        pyctx.get().fail(py, &err);
    }
}
