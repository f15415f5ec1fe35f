//! Calls, returns, throws and unwinding over the frame stack.
//!
//! **No JavaScript call recurses through Rust.** Calling a closure pushes a [`JsFrame`]; calling a
//! built-in runs it and yields a [`Step`]: a value, or a request to call something and be resumed
//! with the result (the built-in's state waits in a [`NativeFrame`]). Values reach their
//! destination ([`ReturnTo`]) through [`Vm::deliver`], a loop, so chains of built-ins calling
//! built-ins (`arr.map(Math.abs)`) run in constant Rust stack.

use codemode_bytecode::{ErrorKind, Reg};

use crate::Vm;
use crate::builtins::{self, Cont, Step};
use crate::frame::{Frame, JsFrame, NativeFrame, ReturnTo, SavedFrame};
use crate::meter::Work;
use crate::object::{Callable, ObjKind};
use crate::promise::Reaction;
use crate::props::Key;
use crate::value::{ObjId, Value};

/// The `dst` of a construction a built-in asked for (`Step::Construct`): the object goes to the
/// native continuation frame below, not into a register.
pub(crate) const NATIVE_DST: u16 = u16::MAX;

/// Where a constructed object goes: into the register (or the waiting built-in), or on to bind
/// `this` after `super(...)`.
pub(crate) fn constructed_into(dst: u16, super_call: bool) -> ReturnTo {
    if super_call {
        ReturnTo::SuperResult(dst)
    } else if dst == NATIVE_DST {
        ReturnTo::Native
    } else {
        ReturnTo::Reg(dst)
    }
}

/// A thrown JavaScript value on its way to a handler.
pub type Throw = Value;

/// A value waiting to be delivered to its destination.
pub type Pending = Option<(ReturnTo, Value)>;

/// How many emptied argument lists [`Vm::args_pool`] keeps, and the largest it keeps.
pub(crate) const ARGS_POOL_MAX: usize = 8;
pub(crate) const ARGS_POOL_CAPACITY: usize = 8;

/// One hop of the call trampoline: the next function to call and where its value goes.
struct CallHop {
    callee: Value,
    this: Value,
    args: Vec<Value>,
    ret: ReturnTo,
}

enum Next {
    Done(Pending),
    Hop(CallHop),
}

/// A call's `...rest` array and `arguments` object, each with the register it goes to.
pub(crate) type ArgumentArrays = [Option<(Reg, Value)>; 2];

/// The elements of a call's `...rest` and `arguments` arrays ([`Vm::argument_arrays`]), with the
/// registers they go to.
pub(crate) type ArgumentLists = [Option<(Reg, Vec<Value>)>; 2];

/// The element lists of the `...rest` array (the arguments past `params`) and the `arguments`
/// array (all of them) of a function that has either.
#[inline]
fn argument_lists(rest: Option<Reg>, arguments: Option<Reg>, params: usize, args: &[Value]) -> ArgumentLists {
    [
        rest.map(|reg| (reg, args.get(params..).unwrap_or(&[]).to_vec())),
        arguments.map(|reg| (reg, args.to_vec())),
    ]
}

impl Vm {
    /// Calls `callee` with `this` and `args`. A closure gets a new frame (its value arrives later);
    /// a built-in runs now and its value is returned for delivery.
    ///
    /// **The call trampoline.** This is the one entry for every call that is not the interpreter's
    /// closure fast path. Bound functions, `call`/`apply` (tail calls) and built-ins that call back
    /// (`Step::Call`) are followed in this loop, never by recursion, so no chain of natives can
    /// grow the Rust stack. Every hop costs fuel like a call ([`Work::Call`]) plus its arguments,
    /// and every frame pushed here, native or JavaScript, counts toward `max_call_depth`.
    pub(crate) fn call_value(
        &mut self,
        callee: Value,
        this: Value,
        args: &[Value],
        ret: ReturnTo,
    ) -> Result<Pending, Throw> {
        let mut hop = match self.call_once(callee, this, args, ret)? {
            Next::Done(pending) => return Ok(pending),
            Next::Hop(hop) => hop,
        };
        loop {
            let CallHop { callee, this, args, ret } = hop;
            let next = self.call_once(callee, this, &args, ret);
            self.recycle_args(args);
            hop = match next? {
                Next::Done(pending) => return Ok(pending),
                Next::Hop(next) => next,
            };
        }
    }

    /// An empty argument list for a `Step::Call`, reused from a finished hop when one is kept.
    pub(crate) fn args_vec(&mut self) -> Vec<Value> {
        self.args_pool.pop().unwrap_or_default()
    }

    /// Keeps a finished hop's argument list for [`Vm::args_vec`] (small ones, a few of them).
    fn recycle_args(&mut self, mut args: Vec<Value>) {
        if self.args_pool.len() < ARGS_POOL_MAX && args.capacity() <= ARGS_POOL_CAPACITY {
            args.clear();
            self.args_pool.push(args);
        }
    }

    /// One hop of the trampoline: calls `callee` and says what comes next.
    #[inline]
    fn call_once(
        &mut self,
        callee: Value,
        mut this: Value,
        args: &[Value],
        ret: ReturnTo,
    ) -> Result<Next, Throw> {
        if self.enter_plain_closure(callee, this, args, ret)? {
            return Ok(Next::Done(None));
        }
        self.charge(Work::Call { args: args.len() });
        let Value::Obj(mut id) = callee else {
            return Err(self.not_a_function(callee));
        };
        // Most callees here are built-ins bound to nothing: run at once, without copying their
        // (empty) data or looking for a bound function first.
        if let ObjKind::Function(Callable::Native { native, data }) = &self.heap.obj(id).kind
            && data.is_empty()
        {
            let native = *native;
            return match builtins::call_native(self, native, this, args, &[])? {
                Step::Return(v) => Ok(Next::Done(Some((ret, v)))),
                step => self.next_hop(step, ret),
            };
        }
        let mut bound_args: Vec<Value> = Vec::new();
        // Unwrap bound functions iteratively; a chain of binds is acyclic, so shorter than the heap.
        for _ in 0..self.heap.objects.len() {
            match &self.heap.obj(id).kind {
                ObjKind::Function(Callable::Bound { target, this: bound_this, args: extra }) => {
                    let mut all = extra.to_vec();
                    all.extend_from_slice(&bound_args);
                    bound_args = all;
                    this = *bound_this;
                    id = *target;
                }
                _ => break,
            }
        }
        if !bound_args.is_empty() {
            self.charge(Work::Elements(bound_args.len()));
            bound_args.extend_from_slice(args);
        }
        let args: &[Value] = if bound_args.is_empty() { args } else { &bound_args };
        let step = match &self.heap.obj(id).kind {
            ObjKind::Function(Callable::Closure { func, this: arrow_this, .. }) => {
                let func = *func;
                let this = self.closure_this(func, *arrow_this, this);
                self.push_closure_frame(id, func, this, args, ret)?;
                return Ok(Next::Done(None));
            }
            ObjKind::Function(Callable::Native { native, data }) => {
                let (native, data) = (*native, data.clone());
                match builtins::call_native(self, native, this, args, &data)? {
                    // Most built-ins return a value: no hop to plan.
                    Step::Return(v) => return Ok(Next::Done(Some((ret, v)))),
                    step => step,
                }
            }
            ObjKind::Function(Callable::Tool { path }) => {
                let path = String::from(&**path);
                match self.call_tool(path, args)? {
                    Step::Return(promise) => return Ok(Next::Done(Some((ret, promise)))),
                    step => step,
                }
            }
            ObjKind::Function(Callable::Class { func, .. }) => {
                let name = self.module.functions.get(*func as usize).and_then(|f| f.name.clone());
                let msg =
                    format!("Class constructor {} cannot be invoked without 'new'", name.unwrap_or_default());
                return Err(self.make_error(ErrorKind::TypeError, &msg));
            }
            ObjKind::Proxy { callable: true, .. } => {
                let args = args.to_vec();
                crate::proxy::ProxyOp::Apply { this, args }.run_on(self, id)?
            }
            _ => return Err(self.not_a_function(callee)),
        };
        self.next_hop(step, ret)
    }

    /// Calls `callee` when it is a closure (not bound, not a class): charges the call and
    /// pushes its frame, and says whether it did. The common case of [`Vm::call_once`], also
    /// taken by a built-in's callback (`Step::Call`) without a trampoline hop.
    #[inline]
    fn enter_plain_closure(
        &mut self,
        callee: Value,
        this: Value,
        args: &[Value],
        ret: ReturnTo,
    ) -> Result<bool, Throw> {
        let Value::Obj(id) = callee else { return Ok(false) };
        let ObjKind::Function(Callable::Closure { func, this: arrow_this, .. }) = &self.heap.obj(id).kind
        else {
            return Ok(false);
        };
        let (func, arrow_this) = (*func, *arrow_this);
        self.charge(Work::Call { args: args.len() });
        let this = self.closure_this(func, arrow_this, this);
        self.push_closure_frame(id, func, this, args, ret)?;
        Ok(true)
    }

    /// The `this` a closure of function `func` runs with: an arrow's own, else the caller's.
    fn closure_this(&self, func: u32, arrow_this: Value, this: Value) -> Value {
        if self.module.functions.get(func as usize).is_some_and(|f| f.is_arrow) { arrow_this } else { this }
    }

    /// Continues after a built-in produced `step`; `ret` is where its value goes.
    pub(crate) fn apply_step(&mut self, step: Step, ret: ReturnTo) -> Result<Pending, Throw> {
        if let Step::Return(v) = step {
            return Ok(Some((ret, v)));
        }
        match self.next_hop(step, ret)? {
            Next::Done(pending) => Ok(pending),
            Next::Hop(CallHop { callee, this, args, ret }) => {
                let pending = self.call_value(callee, this, &args, ret);
                self.recycle_args(args);
                pending
            }
        }
    }

    /// What a built-in's `step` asks for next: a value to deliver, or another call.
    fn next_hop(&mut self, step: Step, ret: ReturnTo) -> Result<Next, Throw> {
        Ok(match step {
            Step::Return(v) => Next::Done(Some((ret, v))),
            Step::Call { callee, this, args, cont } => {
                // Frames are bounded by `max_call_depth` and counted by every collection.
                self.check_call_depth()?;
                self.frames.push(Frame::Native(NativeFrame { cont, ret }));
                let entered = self.enter_plain_closure(callee, this, &args, ReturnTo::Native);
                if entered? {
                    self.recycle_args(args);
                    return Ok(Next::Done(None));
                }
                Next::Hop(CallHop { callee, this, args, ret: ReturnTo::Native })
            }
            Step::TailCall { callee, this, args } => Next::Hop(CallHop { callee, this, args, ret }),
            Step::Construct { callee, new_target, args, cont } => {
                self.check_call_depth()?;
                self.frames.push(Frame::Native(NativeFrame { cont, ret }));
                Next::Done(self.construct_with(callee, &args, new_target, NATIVE_DST, false)?)
            }
            Step::Block(id) => {
                self.host.blocked = Some((id, ret));
                Next::Done(None)
            }
            Step::Resume { generator, mode, value, cont: None } if self.is_async_generator(generator) => {
                self.async_generator_enqueue(generator, mode, value, ret)?;
                Next::Done(None)
            }
            Step::Resume { generator, mode, value, cont } => {
                let caller = match cont {
                    Some(cont) => {
                        self.check_call_depth()?;
                        self.frames.push(Frame::Native(NativeFrame { cont, ret }));
                        ReturnTo::Native
                    }
                    None => ret,
                };
                let caller = crate::generator::GenCaller::Call(caller);
                Next::Done(self.resume_generator(generator, mode, value, caller)?)
            }
        })
    }

    /// **The one frame-entry routine for registers.** Every path that pushes a JavaScript frame
    /// (the interpreter's inline call, [`Vm::call_value`], resuming an async function, the
    /// top-level script) grows the register stack here: growth past the high-water mark since the
    /// last collection is charged to the memory limit. Returns the new window's base.
    // Always inlined: it is on every call's path, and the interpreter's two inline calls
    // (`call!`, `CallSelf`) made it an out-of-line call (fib +8%).
    #[inline(always)]
    pub(crate) fn grow_stack(&mut self, count: usize) -> Result<usize, Throw> {
        let base = self.stack.len();
        let new_len = base + count;
        if new_len > self.stack_charged {
            self.charge_stack_growth(new_len)?;
        }
        // Most windows are small: copied from a block of `undefined`s, which is cheaper than
        // `resize`'s loop.
        const UNDEFINED_BLOCK: [Value; 32] = [Value::Undefined; 32];
        match UNDEFINED_BLOCK.get(..count) {
            Some(block) => self.stack.extend_from_slice(block),
            None => self.stack.resize(new_len, Value::Undefined),
        }
        Ok(base)
    }

    /// Charges the register stack's growth past its high-water mark (see [`Vm::grow_stack`]).
    #[cold]
    #[inline(never)]
    fn charge_stack_growth(&mut self, new_len: usize) -> Result<(), Throw> {
        // The capacity is what the process holds: grown here, by doubling, and charged whole
        // before it exists, so the stack never reallocates past what was charged.
        let target = new_len.max(self.stack.capacity()).max(self.stack_charged.saturating_mul(2));
        self.charge_memory((target - self.stack_charged) * crate::heap::VALUE_SIZE)?;
        self.stack.reserve_exact(target.saturating_sub(self.stack.len()));
        self.stack_charged = self.stack.capacity();
        Ok(())
    }

    /// Copies `n` argument registers from `from` to a new frame's window at `to` (the interpreter's
    /// inline call). One or two arguments, the common case, are moved without a `memmove` call.
    #[inline(always)]
    pub(crate) fn copy_args(&mut self, from: usize, to: usize, n: usize) {
        match n {
            0 => {}
            1 => {
                let v = self.stack[from];
                self.stack[to] = v;
            }
            2 => {
                let (a, b) = (self.stack[from], self.stack[from + 1]);
                self.stack[to] = a;
                self.stack[to + 1] = b;
            }
            _ => self.stack.copy_within(from..from + n, to),
        }
    }

    /// `RangeError: Maximum call stack size exceeded` when another frame would pass
    /// `max_call_depth`. Native and JavaScript frames count alike.
    pub(crate) fn check_call_depth(&mut self) -> Result<(), Throw> {
        if self.frames.len() >= self.config.max_call_depth {
            return Err(self.make_error(ErrorKind::RangeError, "Maximum call stack size exceeded"));
        }
        if self.frames.len() >= self.frame_room {
            self.grow_frames()?;
        }
        Ok(())
    }

    /// Makes room for more frames: the frame list's capacity doubles, charged before it is
    /// allocated (a deep recursion under a huge `max_call_depth` meets the memory limit with its
    /// frames counted at their real size).
    #[cold]
    #[inline(never)]
    fn grow_frames(&mut self) -> Result<(), Throw> {
        let frame = std::mem::size_of::<Frame>();
        let have = self.frames.capacity();
        let charged_before = self.frame_room.min(have);
        let target = (have.max(8) * 2).min(self.config.max_call_depth.max(self.frames.len() + 1));
        if target > have {
            self.charge_memory((target - charged_before) * frame)?;
            self.frames.reserve_exact(target - self.frames.len());
        } else if charged_before < have {
            self.charge_memory((have - charged_before) * frame)?;
        }
        self.frame_room = self.frames.capacity().min(self.config.max_call_depth);
        Ok(())
    }

    /// **The one place a call's `...rest` and `arguments` arrays are made** (every path that
    /// enters a closure's frame: [`Vm::push_closure_frame`] and the interpreter's inline call),
    /// from the arguments, before the frame's registers exist; stored with
    /// [`Vm::store_argument_arrays`] once they do. Their elements are copied out of `args` first
    /// ([`argument_lists`]), so `args` may be the caller's registers.
    pub(crate) fn argument_arrays(&mut self, lists: ArgumentLists) -> Result<ArgumentArrays, Throw> {
        let [rest, arguments] = lists;
        let rest = match rest {
            Some((reg, items)) => Some((reg, self.new_array(items)?)),
            None => None,
        };
        let arguments = match arguments {
            Some((reg, items)) => Some((reg, self.new_array(items)?)),
            None => None,
        };
        Ok([rest, arguments])
    }

    /// The interpreter's inline call into a function with `...rest` or `arguments`, once its
    /// frame (window at `base`) is pushed: the arrays, made from the `argc` argument registers
    /// from `args` of the caller's frame (the one below).
    #[inline(never)]
    pub(crate) fn bind_argument_arrays(
        &mut self,
        code: &codemode_bytecode::FunctionCode,
        args: Reg,
        argc: usize,
        base: usize,
    ) -> Result<(), Throw> {
        let caller_base = match self.frames.len().checked_sub(2).and_then(|i| self.frames.get(i)) {
            Some(Frame::Js(caller)) => caller.base as usize,
            _ => return Ok(()),
        };
        let start = caller_base + args as usize;
        let argv = self.stack.get(start..start + argc).unwrap_or(&[]);
        // Each array goes to its register as it is made (the frame exists: a throw leaves from it).
        for (reg, items) in
            argument_lists(code.rest, code.arguments, code.param_count as usize, argv).into_iter().flatten()
        {
            let array = self.new_array(items)?;
            if let Some(slot) = self.stack.get_mut(base + reg as usize) {
                *slot = array;
            }
        }
        Ok(())
    }

    /// Puts the arrays of [`Vm::argument_arrays`] in their registers of the window at `base`.
    #[inline]
    pub(crate) fn store_argument_arrays(&mut self, base: usize, arrays: ArgumentArrays) {
        for (reg, array) in arrays.into_iter().flatten() {
            if let Some(slot) = self.stack.get_mut(base + reg as usize) {
                *slot = array;
            }
        }
    }

    pub(crate) fn push_closure_frame(
        &mut self,
        closure: ObjId,
        func: u32,
        this: Value,
        args: &[Value],
        ret: ReturnTo,
    ) -> Result<(), Throw> {
        self.check_call_depth()?;
        let Some(code) = self.module.functions.get(func as usize) else {
            return Err(self.make_error(ErrorKind::TypeError, "invalid function"));
        };
        let (count, params, rest, arguments) =
            (code.register_count as usize, code.param_count as usize, code.rest, code.arguments);
        let is_async = code.is_async && !code.is_generator;
        let arrays = if rest.is_some() || arguments.is_some() {
            self.argument_arrays(argument_lists(rest, arguments, params, args))?
        } else {
            [None, None]
        };
        let base = self.grow_stack(count)?;
        let passed = args.len().min(params);
        // One or two arguments (a loop's callback, most calls) without a `memcpy` call.
        match (self.stack.get_mut(base..base + passed), args.get(..passed)) {
            (Some([a]), Some([x])) => *a = *x,
            (Some([a, b]), Some([x, y])) => (*a, *b) = (*x, *y),
            (Some(window), Some(from)) => window.copy_from_slice(from),
            _ => {}
        }
        self.store_argument_arrays(base, arrays);
        let async_promise = if is_async { Some(self.new_promise()?) } else { None };
        self.frames.push(Frame::Js(JsFrame {
            func,
            pc: 0,
            base: base as u32,
            this,
            closure: Some(closure),
            ret,
            async_promise,
        }));
        Ok(())
    }

    /// Sends `pending` values to their destinations, resuming built-ins that waited for them.
    pub(crate) fn deliver(&mut self, pending: Pending) -> Result<(), Throw> {
        self.deliver_until(pending, false)
    }

    /// [`Vm::deliver`] for the interpreter's call instructions, which end the slice when its fuel
    /// is spent: a chain of built-ins calling built-ins (`typedArray.toLocaleString()`,
    /// `array.map(String)`) never returns to the interpreter between steps, so here it yields
    /// instead: once the fuel is spent, the value the next built-in frame waits for is parked
    /// ([`Vm::parked`]) and `run` resumes it at the start of the next slice.
    pub(crate) fn deliver_yielding(&mut self, pending: Pending) -> Result<(), Throw> {
        self.deliver_until(pending, true)
    }

    fn deliver_until(&mut self, mut pending: Pending, may_park: bool) -> Result<(), Throw> {
        while let Some((ret, value)) = pending.take() {
            match ret {
                ReturnTo::Reg(r) => {
                    if let Some(Frame::Js(f)) = self.frames.last() {
                        let i = f.base as usize + r as usize;
                        if let Some(slot) = self.stack.get_mut(i) {
                            *slot = value;
                        }
                    }
                }
                ReturnTo::Construct { dst, this, super_call, .. } => {
                    let v = if matches!(value, Value::Obj(_)) { value } else { Value::Obj(this) };
                    pending = Some((constructed_into(dst, super_call), v));
                }
                ReturnTo::ConstructDerived { dst, super_call, .. } => {
                    // Frames returning this way are finished by `return_from_frame`; a value
                    // arriving here is already the constructed object.
                    pending = Some((constructed_into(dst, super_call), value));
                }
                ReturnTo::SuperNative { dst, proto } => {
                    if let Value::Obj(o) = value {
                        self.heap.obj_mut(o).proto = Some(proto);
                    }
                    pending = Some((ReturnTo::SuperResult(dst), value));
                }
                ReturnTo::SuperResult(dst) => pending = self.bind_super_result(dst, value)?,
                ReturnTo::Native => {
                    if may_park && self.fuel <= 0 && matches!(self.frames.last(), Some(Frame::Native(_))) {
                        self.parked = Some(value);
                        return Ok(());
                    }
                    let Some(Frame::Native(NativeFrame { cont, ret })) = self.frames.pop() else {
                        continue;
                    };
                    let step = builtins::resume(self, cont, value)?;
                    pending = self.apply_step(step, ret)?;
                }
                ReturnTo::Settle(p) => self.resolve_promise(p, value)?,
                ReturnTo::Discard | ReturnTo::RejectOnThrow(_) | ReturnTo::Generator(_) => {}
                ReturnTo::Iterator(dst) => {
                    let it = self.wrap_user_iterator(value)?;
                    pending = Some((ReturnTo::Reg(dst), it));
                }
                ReturnTo::IterStep { dst, target } => self.deliver_iter_step(value, dst, target)?,
                ReturnTo::JumpUnless(target) => {
                    let holds = self.to_boolean(value);
                    if !holds && let Some(Frame::Js(f)) = self.frames.last_mut() {
                        f.pc = target;
                    }
                }
            }
        }
        Ok(())
    }

    /// Returns from the top JavaScript frame with `value`.
    pub(crate) fn return_from_frame(&mut self, value: Value) -> Result<(), Throw> {
        let Some(Frame::Js(frame)) = self.frames.pop() else { return Ok(()) };
        self.stack.truncate(frame.base as usize);
        match frame.async_promise {
            Some(p) if p == self.main_promise => {
                // The program's result, finished after the microtasks already queued. (One
                // job per run, not charged: a program that returns near its memory limit, say
                // from the `catch` of an out-of-memory error, still returns.)
                let reaction = Reaction::FinishMain;
                self.jobs.push_back(crate::promise::Job::Reaction { reaction, value, rejected: false });
                Ok(())
            }
            Some(p) => {
                self.resolve_promise(p, value)?;
                self.deliver(Some((frame.ret, Value::Obj(p))))
            }
            None => match frame.ret {
                ReturnTo::Generator(generator) => self.generator_returned(generator, value),
                ReturnTo::ConstructDerived { dst, super_call, .. } => {
                    let v = match value {
                        Value::Obj(_) => value,
                        Value::Undefined if frame.this != Value::Uninit => frame.this,
                        Value::Undefined => return Err(self.this_before_super()),
                        _ => {
                            return Err(self.make_error(
                                ErrorKind::TypeError,
                                "Derived constructors may only return object or undefined",
                            ));
                        }
                    };
                    self.deliver(Some((constructed_into(dst, super_call), v)))
                }
                ret => self.deliver(Some((ret, value))),
            },
        }
    }

    /// The program's completion value arrived (or, `rejected`, what it awaited failed). The
    /// program is the body of an async function, so a promise or thenable it returns (`return
    /// Promise.all(..)`, a last line `main();`) is awaited the way `return` in an async function
    /// awaits it: through a gate promise that resolves with the value and finishes the program
    /// when it settles. Anything else is the result.
    pub(crate) fn finish_main_settling(&mut self, value: Value, rejected: bool) -> Result<(), Throw> {
        if rejected {
            return self.reject_promise(self.main_promise, value);
        }
        // As `resolve_promise` decides, without reading `then` twice: an intrinsic promise is
        // adopted, an object with a callable `then` is asked through it.
        let job = match value {
            Value::Obj(id) if self.is_promise(value).is_some() && builtins::plain_promise(self, id) => {
                Some(None)
            }
            Value::Obj(id)
                if matches!(
                    self.heap.obj(id).kind,
                    ObjKind::Plain | ObjKind::Function(_) | ObjKind::Promise(_)
                ) =>
            {
                let then = self.get_value(value, Key::Atom(self.realm.atoms.then))?;
                self.is_callable(then).then_some(Some(then))
            }
            _ => None,
        };
        let Some(then) = job else {
            // A promise inside the result (`{ order: tools.orders.lookup(..) }`) is awaited too:
            // the result is looked at again once it settles.
            if self.pending_promises > 0
                && let Some(pending) = builtins::tojson::pending_promise_inside(self, value)
            {
                return self.add_reaction(pending, Reaction::FinishMainWith { value });
            }
            return self.finish_main(value);
        };
        let gate = self.new_promise()?;
        self.add_reaction(gate, Reaction::FinishMain)?;
        self.charge_memory(std::mem::size_of::<crate::promise::Job>())?;
        let reaction = match then {
            None => Reaction::Forward { promise: gate },
            Some(then) => Reaction::Thenable { promise: gate, then },
        };
        self.jobs.push_back(crate::promise::Job::Reaction { reaction, value, rejected: false });
        Ok(())
    }

    /// Serializes the program's result (running `toJSON` methods) and settles the program.
    pub(crate) fn finish_main(&mut self, value: Value) -> Result<(), Throw> {
        self.result_note = self.empty_result_note(value);
        let p = self.main_promise;
        let step =
            builtins::tojson::start(self, value, builtins::tojson::Purpose::Result, None, String::new());
        match step.and_then(|step| self.apply_step(step, ReturnTo::Settle(p))) {
            Ok(pending) => self.deliver(pending),
            Err(e) => self.reject_promise(p, e),
        }
    }

    /// `super(...)` returned `value`: it becomes `this` of the derived constructor (the top
    /// frame) and the call's value; then the class's instance fields are defined on it.
    fn bind_super_result(&mut self, dst: u16, value: Value) -> Result<Pending, Throw> {
        let Some(Frame::Js(f)) = self.frames.last_mut() else { return Ok(None) };
        if f.this != Value::Uninit {
            return Err(
                self.make_error(ErrorKind::ReferenceError, "Super constructor may only be called once")
            );
        }
        f.this = value;
        let (base, closure) = (f.base as usize, f.closure);
        if let Some(slot) = self.stack.get_mut(base + dst as usize) {
            *slot = value;
        }
        let fields = match closure.map(|c| &self.heap.obj(c).kind) {
            Some(ObjKind::Function(Callable::Class { fields, .. })) => *fields,
            _ => Value::Undefined,
        };
        if fields == Value::Undefined {
            return Ok(None);
        }
        self.call_value(fields, value, &[], ReturnTo::Discard)
    }

    /// `ReferenceError` for `this` read (or a derived constructor returning) before `super()`.
    pub(crate) fn this_before_super(&mut self) -> Throw {
        self.make_error(
            ErrorKind::ReferenceError,
            "Must call super constructor in derived class before accessing 'this' or returning from derived constructor",
        )
    }

    /// Unwinds to the innermost handler of `exc`. Frames without one are popped; a frame that
    /// settles a promise rejects it and unwinding stops there. Returns `Err(exc)` when the stack
    /// emptied without a handler (the caller then treats it as uncaught).
    pub(crate) fn unwind(&mut self, mut exc: Throw) -> Result<(), Throw> {
        loop {
            let Some(top) = self.frames.last_mut() else { return Err(exc) };
            match top {
                Frame::Js(f) => {
                    let module = self.module.clone();
                    let code = module.functions.get(f.func as usize);
                    let at = f.pc.saturating_sub(1);
                    if let Some(h) =
                        code.and_then(|c| c.handlers.iter().find(|h| h.start <= at && at < h.end))
                    {
                        f.pc = h.target;
                        let i = f.base as usize + h.exception as usize;
                        if let Some(slot) = self.stack.get_mut(i) {
                            *slot = exc;
                        }
                        return Ok(());
                    }
                    let Some(Frame::Js(frame)) = self.frames.pop() else { return Err(exc) };
                    self.stack.truncate(frame.base as usize);
                    if let Some(p) = frame.async_promise {
                        self.reject_promise(p, exc)?;
                        return match self.deliver(Some((frame.ret, Value::Obj(p)))) {
                            Ok(()) => Ok(()),
                            Err(e) => {
                                exc = e;
                                continue;
                            }
                        };
                    }
                    let ret = match frame.ret {
                        // A generator's frame threw: it is done, and the throw goes on to whoever
                        // resumed it.
                        // An async generator rejects its request instead; serving the next one may
                        // throw into its frame again (`throw()` queued while it ran).
                        ReturnTo::Generator(generator) if self.is_async_generator(generator) => {
                            match self.async_generator_threw(generator, exc) {
                                Ok(_) => return Ok(()),
                                Err(e) => {
                                    exc = e;
                                    continue;
                                }
                            }
                        }
                        ReturnTo::Generator(generator) => match self.finish_generator(generator) {
                            crate::generator::GenCaller::Call(ret) => ret,
                            _ => ReturnTo::Discard,
                        },
                        ret => ret,
                    };
                    if let ReturnTo::Settle(p) | ReturnTo::RejectOnThrow(p) = ret {
                        self.reject_promise(p, exc)?;
                        return Ok(());
                    }
                }
                Frame::Native(_) => {
                    let Some(Frame::Native(nf)) = self.frames.pop() else { return Err(exc) };
                    // `DisposableStack.prototype.dispose` (and the asynchronous disposal of
                    // `AsyncDisposableStack` and `await using`) catches a disposer's throw and
                    // goes on.
                    // Continuations that recover from the throw with a step of their own:
                    // disposal goes on to the next disposer; `Promise.all` & co close the
                    // iterator first, the original error going on (`promise_combine.rs`); a
                    // capability's body that threw calls its `reject` (`promise_spec.rs`).
                    let recovery = match nf.cont {
                        Cont::Dispose(state) => Ok(builtins::disposable::caught(self, *state, exc)),
                        Cont::AsyncDispose { stack, how, awaited } => {
                            Ok(builtins::async_disposable::caught(self, stack, how, awaited, exc))
                        }
                        // Iterator helpers, `concat` and `zip` are done after a throw, and
                        // close what the specification closes first (`iterator_statics.rs`).
                        Cont::Helper { helper, phase } => {
                            Ok(builtins::helper_caught(self, helper, phase, exc))
                        }
                        Cont::Consume(state) => Ok(builtins::consume_caught(self, &state, exc)),
                        Cont::IterStatics(state) => Ok(builtins::iterator_statics::caught(self, *state, exc)),
                        Cont::IterZip(state) => Ok(builtins::iterator_zip::caught(self, *state, exc)),
                        Cont::Combine(state) => match state.open_iterator() {
                            Some(iterator) => Ok(builtins::combine_close(self, iterator, exc)),
                            None => Err(Cont::Combine(state)),
                        },
                        Cont::CatchReject { reject, result, .. } => {
                            Ok(Ok(builtins::capability_caught(reject, result, exc)))
                        }
                        cont => Err(cont),
                    };
                    let cont = match recovery {
                        Ok(step) => {
                            let next = step
                                .and_then(|step| self.apply_step(step, nf.ret))
                                .and_then(|pending| self.deliver(pending));
                            match next {
                                Ok(()) => return Ok(()),
                                Err(e) => {
                                    exc = e;
                                    continue;
                                }
                            }
                        }
                        Err(cont) => cont,
                    };
                    // IteratorClose after a throw: whatever closing threw, the original goes on.
                    if let Cont::ThrowAfter(original) = cont {
                        exc = original;
                        continue;
                    }
                    if let Cont::PromiseExecutor { promise } = cont {
                        self.reject_promise(promise, exc)?;
                        return match self.deliver(Some((nf.ret, Value::Obj(promise)))) {
                            Ok(()) => Ok(()),
                            Err(e) => {
                                exc = e;
                                continue;
                            }
                        };
                    }
                    if let ReturnTo::Settle(p) | ReturnTo::RejectOnThrow(p) = nf.ret {
                        self.reject_promise(p, exc)?;
                        return Ok(());
                    }
                }
            }
        }
    }

    /// Suspends the top frame (an async function) at `await`, resuming when `promise` settles.
    pub(crate) fn suspend_at_await(&mut self, promise: ObjId, await_dst: u16) -> Result<(), Throw> {
        let Some(Frame::Js(mut frame)) = self.frames.pop() else { return Ok(()) };
        let base = frame.base as usize;
        let registers = self.stack.get(base..).map(<[Value]>::to_vec).unwrap_or_default();
        self.stack.truncate(base);
        let caller = frame.ret;
        // An async generator's frame stays its generator's when it resumes.
        if !matches!(frame.ret, ReturnTo::Generator(_)) {
            frame.ret = ReturnTo::Discard;
        }
        let async_promise = frame.async_promise;
        let saved = SavedFrame { frame, registers, await_dst };
        let coroutine = self.alloc(ObjKind::Coroutine(Box::new(saved)), None)?;
        self.add_reaction(promise, Reaction::Await { coroutine })?;
        match async_promise {
            Some(p) => self.deliver(Some((caller, Value::Obj(p)))),
            None => Ok(()),
        }
    }

    /// Puts a suspended async function back on the stack with the awaited outcome.
    pub(crate) fn resume_coroutine(
        &mut self,
        coroutine: ObjId,
        value: Value,
        rejected: bool,
    ) -> Result<(), Throw> {
        let kind = std::mem::replace(&mut self.heap.obj_mut(coroutine).kind, ObjKind::Plain);
        let ObjKind::Coroutine(saved) = kind else { return Ok(()) };
        let SavedFrame { mut frame, registers, await_dst } = *saved;
        let base = self.grow_stack(registers.len())?;
        frame.base = base as u32;
        if let Some(window) = self.stack.get_mut(base..) {
            window.copy_from_slice(&registers);
        }
        self.frames.push(Frame::Js(frame));
        if rejected {
            self.unwind(value)
        } else {
            if let Some(slot) = self.stack.get_mut(base + await_dst as usize) {
                *slot = value;
            }
            Ok(())
        }
    }

    /// `TypeError: obj.method is not a function`, naming the callee as the program wrote it.
    pub(crate) fn not_a_function_at(
        &mut self,
        v: Value,
        code: &codemode_bytecode::FunctionCode,
        pc: usize,
    ) -> Throw {
        match code.callee_name(pc) {
            Some(name) => {
                let msg = format!("{name} is not a function");
                self.make_error(ErrorKind::TypeError, &msg)
            }
            None => self.not_a_function(v),
        }
    }

    /// [`Vm::not_a_function_at`] in function `fi` of `module` (the interpreter's slow path: the
    /// running function's code is not kept in a local).
    #[cold]
    #[inline(never)]
    pub(crate) fn not_a_function_in(
        &mut self,
        v: Value,
        module: &codemode_bytecode::VerifiedModule,
        fi: u32,
        pc: usize,
    ) -> Throw {
        match module.functions.get(fi as usize) {
            Some(code) => self.not_a_function_at(v, code, pc),
            None => self.not_a_function(v),
        }
    }

    pub(crate) fn not_a_function(&mut self, v: Value) -> Throw {
        let desc = self.describe_for_error(v);
        self.make_error(ErrorKind::TypeError, &format!("{desc} is not a function"))
    }
}
