//! The instruction loop and the event loop around it.
//!
//! [`Vm::run`] alternates between executing the top frame's instructions and, when the frame
//! stack is empty, running the next microtask. It stops when the top-level promise settles, when
//! fuel runs out (checked at backward jumps and calls), or when nothing can run without a host
//! completion.

use crate::meter::Work;
use codemode_bytecode::{BinOp, ErrorKind, Op};

use crate::builtins::array_loop::InPlace;
use crate::call::Throw;
use crate::convert::NumericOp;
use crate::frame::{Frame, ReturnTo};
use crate::object::{Callable, ObjKind};
use crate::promise::Settled;
use crate::props::Key;
use crate::value::Value;
use crate::{Status, Vm};

/// What the inner loop tells the outer loop.
pub(crate) enum Exit {
    /// The frame stack changed (call, return, await): re-read the top frame.
    Switch,
    /// A throw to unwind.
    Throw(Throw),
    /// Fuel ran out; the top frame's pc is saved.
    OutOfFuel,
}

impl Vm {
    /// Runs until the program finishes, throws, waits on the host, or spends `fuel`.
    pub fn run(&mut self, fuel: u64) -> Status {
        if let Some(status) = self.finished {
            return status;
        }
        self.fuel = fuel.min(i64::MAX as u64) as i64;
        loop {
            if let Some(status) = self.check_main() {
                self.finished = Some(status);
                return status;
            }
            if self.host.blocked.is_some() {
                return Status::Waiting;
            }
            match self.parked.take() {
                // A chain of built-ins that yielded at the end of the last slice goes on first.
                Some(value) => {
                    if let Err(exc) = self.deliver_yielding(Some((ReturnTo::Native, value))) {
                        self.handle_throw(exc);
                    }
                }
                None if self.frames.is_empty() => {
                    // The job loop is metered like the instruction loop: a job costs a unit, and a
                    // slice that is spent ends between jobs.
                    if self.fuel <= 0 && !self.jobs.is_empty() {
                        return Status::OutOfFuel;
                    }
                    // The result is serialized next: collect first when memory is tight, so that
                    // garbage left by the program (say, what an out-of-memory error interrupted)
                    // cannot fail a result it already returned.
                    if let Some(crate::promise::Job::Reaction {
                        reaction: crate::promise::Reaction::FinishMain,
                        ..
                    }) = self.jobs.front()
                        && self.heap.bytes_used > self.heap.memory_limit / 2
                    {
                        self.collect_garbage();
                    }
                    match self.jobs.pop_front() {
                        Some(job) => {
                            self.charge(Work::Units(1));
                            if let Err(exc) = self.run_job(job) {
                                self.handle_throw(exc);
                            }
                            continue;
                        }
                        None => return Status::Waiting,
                    }
                }
                None => match self.execute() {
                    Exit::Switch => {}
                    Exit::Throw(exc) => self.handle_throw(exc),
                    Exit::OutOfFuel => return Status::OutOfFuel,
                },
            }
            if self.heap.wants_collection() {
                self.collect_garbage();
            }
            // Every switch is a checkpoint: a built-in that calls back in a loop (draining an
            // iterator, `Array.from`, sorting) returns here between calls whose callees may have
            // neither a call nor a backward jump of their own.
            if self.fuel <= 0 && !self.frames.is_empty() {
                return Status::OutOfFuel;
            }
        }
    }

    fn check_main(&self) -> Option<Status> {
        match &self.heap.obj(self.main_promise).kind {
            ObjKind::Promise(p) => match p.settled {
                Settled::Pending => None,
                Settled::Fulfilled(_) => Some(Status::Done),
                Settled::Rejected(_) => Some(Status::Threw),
            },
            _ => Some(Status::Threw),
        }
    }

    pub(crate) fn handle_throw(&mut self, exc: Throw) {
        self.record_throw_location();
        if let Value::Obj(id) = exc {
            let location = self.throw_location;
            if let ObjKind::Error(info) = &mut self.heap.obj_mut(id).kind
                && info.location.is_none()
            {
                info.location = location;
                crate::stack_trace::settle_top(&self.frames, info, location);
            }
        }
        if let Err(uncaught) = self.unwind(exc) {
            // Nothing to catch it: it rejects the program.
            let _ = self.reject_promise(self.main_promise, uncaught);
        }
    }

    fn record_throw_location(&mut self) {
        if let Some(Frame::Js(f)) = self.frames.last()
            && let Some(code) = self.module.functions.get(f.func as usize)
        {
            let span = code.span_at(f.pc.saturating_sub(1) as usize);
            self.throw_location = Some((span.line, span.column));
        }
    }

    /// Executes the top frame until the frame stack changes.
    fn execute(&mut self) -> Exit {
        let module = self.module.clone();
        // Re-entered (`continue 'frames`) when the top frame may have changed without leaving:
        // the running frame is read again.
        'frames: loop {
            let Some(Frame::Js(frame)) = self.frames.last() else { return Exit::Switch };
            let Some(func) = module.functions.get(frame.func as usize) else {
                return Exit::Throw(Value::Undefined);
            };
            // The running frame, cached in locals. Calls to plain closures and returns to a
            // JavaScript caller switch these in place (the fast paths of `Call` and `Return`);
            // everything else saves `pc` and goes back to `run`.
            let mut code = &func.code[..];
            let mut fi = frame.func;
            let mut base = frame.base as usize;
            let mut pc = frame.pc as usize;

            // The running closure is read from the top frame when needed (fewer locals live across
            // the loop leaves its hot ones in registers).
            macro_rules! closure {
                () => {
                    match self.frames.last() {
                        Some(Frame::Js(f)) => f.closure,
                        _ => None,
                    }
                };
            }
            macro_rules! reg {
                ($r:expr) => {
                    self.stack[base + $r as usize]
                };
            }
            macro_rules! save_pc {
                () => {
                    if let Some(Frame::Js(f)) = self.frames.last_mut() {
                        f.pc = pc as u32;
                    }
                };
            }
            macro_rules! throw {
                ($e:expr) => {{
                    save_pc!();
                    return Exit::Throw($e);
                }};
            }
            macro_rules! tri {
                ($e:expr) => {
                    match $e {
                        Ok(v) => v,
                        Err(e) => throw!(e),
                    }
                };
            }
            macro_rules! jump {
                ($target:expr) => {{
                    let t = $target as usize;
                    if t < pc {
                        self.charge(Work::Units(1));
                        if self.fuel <= 0 {
                            pc = t;
                            save_pc!();
                            return Exit::OutOfFuel;
                        }
                        // A loop that allocates must let the collector run: at a backward jump every
                        // live value is in a register, so yield to `run`, which collects.
                        if self.heap.wants_collection() {
                            pc = t;
                            save_pc!();
                            return Exit::Switch;
                        }
                    }
                    pc = t;
                }};
            }
            macro_rules! switch_after {
                ($e:expr) => {{
                    save_pc!();
                    match $e {
                        Ok(()) => return Exit::Switch,
                        Err(e) => return Exit::Throw(e),
                    }
                }};
            }

            // After a frame is entered in place (a call, a loop callback restarted): fuel and the
            // collector, checked at every call (the new frame's pc is saved: it is the top frame).
            macro_rules! frame_entered {
                () => {{
                    if self.fuel <= 0 {
                        return Exit::OutOfFuel;
                    }
                    if self.heap.wants_collection() {
                        return Exit::Switch;
                    }
                    continue;
                }};
            }

            // `Call`, `CallPlain` and `CallSelf` with callee value `$f`: `$this` is evaluated only
            // when the callee is not an arrow.
            macro_rules! call {
                ($dst:expr, $f:expr, $this:expr, $args:expr, $argc:expr) => {{
                    let f = $f;
                    // Fast path: a synchronous closure gets its frame here, and the loop goes on in
                    // it.
                    if let Value::Obj(id) = f
                        && let ObjKind::Function(Callable::Closure { func: target, this: arrow_this, .. }) =
                            self.heap.obj(id).kind
                        && let Some(callee_code) = module.functions.get(target as usize)
                        && !callee_code.is_async
                        && self.frames.len() < self.frame_room
                    {
                        self.charge_call($argc);
                        let this = if callee_code.is_arrow { arrow_this } else { $this };
                        save_pc!();
                        let new_base = tri!(self.grow_stack(callee_code.register_count as usize));
                        let passed = ($argc as usize).min(callee_code.param_count as usize);
                        self.copy_args(base + $args as usize, new_base, passed);
                        self.frames.push(Frame::Js(crate::frame::JsFrame {
                            func: target,
                            pc: 0,
                            base: new_base as u32,
                            this,
                            closure: Some(id),
                            ret: ReturnTo::Reg($dst),
                            async_promise: None,
                        }));
                        code = &callee_code.code[..];
                        fi = target;
                        base = new_base;
                        pc = 0;
                        if callee_code.rest.is_some() || callee_code.arguments.is_some() {
                            // Made in the new frame (the caller's argument registers are intact
                            // below it); a throw here leaves from the callee.
                            tri!(self.bind_argument_arrays(callee_code, $args, $argc as usize, new_base));
                        }
                        frame_entered!();
                    }
                    // `array.push(x)`: appended here, without a built-in call's set-up.
                    if let Value::Obj(id) = f
                        && let ObjKind::Function(Callable::Native { native, .. }) = self.heap.obj(id).kind
                        && crate::builtins::is_array_push(native)
                        && let start = base + $args as usize
                        && let Some(result) = self.push_in_place($this, start..start + $argc as usize)
                    {
                        reg!($dst) = tri!(result);
                        if self.fuel <= 0 {
                            save_pc!();
                            return Exit::OutOfFuel;
                        }
                        continue;
                    }
                    call_general!($dst, f, $this, $args, $argc)
                }};
            }
            // Any call the inline paths do not take: through `call_value`, from a copy of the
            // arguments.
            macro_rules! call_general {
                ($dst:expr, $f:expr, $this:expr, $args:expr, $argc:expr) => {{
                    let f = $f;
                    let t = $this;
                    if !self.is_callable(f) {
                        throw!(self.not_a_function_in(f, &module, fi, pc - 1));
                    }
                    let start = base + $args as usize;
                    let argv: smallvec::SmallVec<[Value; 8]> = self
                        .stack
                        .get(start..start + $argc as usize)
                        .unwrap_or(&[])
                        .iter()
                        .copied()
                        .collect();
                    save_pc!();
                    let depth = self.frames.len();
                    let result = self
                        .call_value(f, t, &argv, ReturnTo::Reg($dst))
                        .and_then(|p| self.deliver_yielding(p));
                    if let Err(e) = result {
                        return Exit::Throw(e);
                    }
                    if self.fuel <= 0 {
                        return Exit::OutOfFuel;
                    }
                    // A built-in that finished (its value is in the register) left this frame on
                    // top: go on without leaving, after `run`'s checks (the collector, a blocked
                    // tool call).
                    if self.frames.len() == depth
                        && self.host.blocked.is_none()
                        && !self.heap.wants_collection()
                    {
                        continue 'frames;
                    }
                    return Exit::Switch;
                }};
            }

            loop {
                let Some(op) = code.get(pc) else {
                    // Falling off the end returns undefined (the compiler always emits a Return).
                    switch_after!(self.return_from_frame(Value::Undefined));
                };
                pc += 1;
                // Matched in place: each arm reads only its own operands (copying the instruction
                // out first loads every operand field into registers at the dispatch).
                match *op {
                    Op::LoadUndef { dst } => reg!(dst) = Value::Undefined,
                    Op::LoadNull { dst } => reg!(dst) = Value::Null,
                    Op::LoadTrue { dst } => reg!(dst) = Value::Bool(true),
                    Op::LoadFalse { dst } => reg!(dst) = Value::Bool(false),
                    Op::LoadUninit { dst } => reg!(dst) = Value::Uninit,
                    Op::LoadInt { dst, value } => reg!(dst) = Value::Number(value as f64),
                    Op::LoadConst { dst, k } => reg!(dst) = self.constant(fi, k),
                    Op::Move { dst, src } => reg!(dst) = reg!(src),
                    Op::CheckTdz { src, k } => {
                        if matches!(reg!(src), Value::Uninit) {
                            let name = self.constant_str(fi, k);
                            let msg = format!("Cannot access '{name}' before initialization");
                            throw!(self.make_error(ErrorKind::ReferenceError, &msg));
                        }
                    }
                    Op::GetGlobal { dst, k } => {
                        let atom = self.constant_atom(fi, k);
                        match self.get_global(atom) {
                            Some(v) => reg!(dst) = v,
                            None => {
                                let name = self.heap.atoms.name(atom).to_string();
                                let msg = crate::absent::not_defined_message(&name);
                                throw!(self.make_error(ErrorKind::ReferenceError, &msg));
                            }
                        }
                    }
                    Op::NewCell { dst } => {
                        let cell =
                            tri!(self.heap.alloc_cell(Value::Uninit).map_err(|_| self.out_of_memory()));
                        reg!(dst) = Value::Cell(cell);
                    }
                    Op::LoadCell { dst, cell } => {
                        if let Value::Cell(c) = reg!(cell) {
                            reg!(dst) = self.heap.cell(c);
                        }
                    }
                    Op::StoreCell { cell, src } => {
                        if let Value::Cell(c) = reg!(cell) {
                            let v = reg!(src);
                            self.heap.set_cell(c, v);
                        }
                    }
                    Op::LoadCapture { dst, capture } => {
                        reg!(dst) = match self.capture_cell(closure!(), capture) {
                            Some(c) => self.heap.cell(c),
                            None => Value::Undefined,
                        };
                    }
                    // A recursive function's own name (`self_capture`) and named function expressions.
                    Op::LoadCallee { dst } => {
                        reg!(dst) = closure!().map_or(Value::Undefined, Value::Obj);
                    }
                    Op::StoreCapture { capture, src } => {
                        if let Some(c) = self.capture_cell(closure!(), capture) {
                            let v = reg!(src);
                            self.heap.set_cell(c, v);
                        }
                    }
                    Op::Closure { dst, func } => {
                        let this = match self.frames.last() {
                            Some(Frame::Js(f)) => f.this,
                            _ => Value::Undefined,
                        };
                        let v = tri!(self.make_closure(func, closure!(), base, this));
                        reg!(dst) = v;
                    }
                    Op::Binary { op, dst, a, b } => {
                        let (x, y) = (reg!(a), reg!(b));
                        reg!(dst) = match (x, y) {
                            (Value::Number(x), Value::Number(y))
                                if !matches!(op, BinOp::In | BinOp::InstanceOf) =>
                            {
                                number_binary(op, x, y)
                            }
                            // A string and a string or number: `+` concatenates (`"order_" + i`).
                            (Value::Str(_), Value::Str(_) | Value::Number(_))
                            | (Value::Number(_), Value::Str(_))
                                if matches!(op, BinOp::Add) =>
                            {
                                tri!(self.concat(x, y))
                            }
                            // `===` never converts or runs program code (`r.status === "open"`).
                            _ if matches!(op, BinOp::StrictEq | BinOp::StrictNotEq) => {
                                Value::Bool(self.strict_equals_metered(x, y) == matches!(op, BinOp::StrictEq))
                            }
                            (Value::Obj(_), _) | (_, Value::Obj(_)) => {
                                save_pc!();
                                let convert = crate::to_primitive::ConvertOp::Binary(op);
                                if tri!(self.convert_with_user_code(convert, [x, y], 2, ReturnTo::Reg(dst))) {
                                    return Exit::Switch;
                                }
                                tri!(self.binary(op, x, y))
                            }
                            _ => tri!(self.binary(op, x, y)),
                        };
                    }
                    Op::BinaryInt { op, dst, a, int } => {
                        let y = int as f64;
                        reg!(dst) = match reg!(a) {
                            Value::Number(x) => number_binary(op, x, y),
                            x @ Value::Obj(_) => {
                                save_pc!();
                                let convert = crate::to_primitive::ConvertOp::Binary(op);
                                let operands = [x, Value::Number(y)];
                                if tri!(self.convert_with_user_code(convert, operands, 2, ReturnTo::Reg(dst)))
                                {
                                    return Exit::Switch;
                                }
                                tri!(self.binary(op, x, Value::Number(y)))
                            }
                            x => tri!(self.binary(op, x, Value::Number(y))),
                        };
                    }
                    Op::Unary { op, dst, src } => {
                        let v = reg!(src);
                        if let Value::Obj(_) = v
                            && matches!(
                                op,
                                codemode_bytecode::UnOp::Minus
                                    | codemode_bytecode::UnOp::Plus
                                    | codemode_bytecode::UnOp::BitNot
                            )
                        {
                            save_pc!();
                            let convert = crate::to_primitive::ConvertOp::Unary(op);
                            if tri!(self.convert_with_user_code(
                                convert,
                                [v, Value::Undefined],
                                1,
                                ReturnTo::Reg(dst)
                            )) {
                                return Exit::Switch;
                            }
                        }
                        reg!(dst) = tri!(self.unary(op, v));
                    }
                    Op::Inc { dst, src } => match reg!(src) {
                        Value::Number(n) => reg!(dst) = Value::Number(n + 1.0),
                        v => {
                            save_pc!();
                            match self.numeric_slow(NumericOp::Step(true), v, dst) {
                                Ok(Some(r)) => reg!(dst) = r,
                                Ok(None) => return Exit::Switch,
                                Err(e) => return Exit::Throw(e),
                            }
                        }
                    },
                    Op::Dec { dst, src } => match reg!(src) {
                        Value::Number(n) => reg!(dst) = Value::Number(n - 1.0),
                        v => {
                            save_pc!();
                            match self.numeric_slow(NumericOp::Step(false), v, dst) {
                                Ok(Some(r)) => reg!(dst) = r,
                                Ok(None) => return Exit::Switch,
                                Err(e) => return Exit::Throw(e),
                            }
                        }
                    },
                    Op::ToNumeric { dst, src } => match reg!(src) {
                        v @ Value::Number(_) => reg!(dst) = v,
                        v => {
                            save_pc!();
                            match self.numeric_slow(NumericOp::ToNumeric, v, dst) {
                                Ok(Some(r)) => reg!(dst) = r,
                                Ok(None) => return Exit::Switch,
                                Err(e) => return Exit::Throw(e),
                            }
                        }
                    },
                    Op::Jump { target } => jump!(target),
                    Op::JumpIfTrue { src, target } => {
                        if self.to_boolean(reg!(src)) {
                            jump!(target)
                        }
                    }
                    Op::JumpIfFalse { src, target } => {
                        if !self.to_boolean(reg!(src)) {
                            jump!(target)
                        }
                    }
                    Op::JumpUnlessCompare { op, a, b, target } => {
                        let holds = match (reg!(a), reg!(b)) {
                            (Value::Number(x), Value::Number(y)) => number_compare(op, x, y),
                            (x, y) => {
                                if matches!(x, Value::Obj(_)) || matches!(y, Value::Obj(_)) {
                                    save_pc!();
                                    let convert = crate::to_primitive::ConvertOp::Binary(op);
                                    let ret = ReturnTo::JumpUnless(target);
                                    if tri!(self.convert_with_user_code(convert, [x, y], 2, ret)) {
                                        return Exit::Switch;
                                    }
                                }
                                let v = tri!(self.binary(op, x, y));
                                self.to_boolean(v)
                            }
                        };
                        if !holds {
                            jump!(target)
                        }
                    }
                    Op::JumpUnlessCompareInt { op, a, int, target } => {
                        let y = int as f64;
                        let holds = match reg!(a) {
                            Value::Number(x) => number_compare(op, x, y),
                            x => {
                                if let Value::Obj(_) = x {
                                    save_pc!();
                                    let convert = crate::to_primitive::ConvertOp::Binary(op);
                                    let ret = ReturnTo::JumpUnless(target);
                                    if tri!(self.convert_with_user_code(
                                        convert,
                                        [x, Value::Number(y)],
                                        2,
                                        ret
                                    )) {
                                        return Exit::Switch;
                                    }
                                }
                                let v = tri!(self.binary(op, x, Value::Number(y)));
                                self.to_boolean(v)
                            }
                        };
                        if !holds {
                            jump!(target)
                        }
                    }
                    Op::JumpIfNullish { src, target } => {
                        if reg!(src).is_nullish() {
                            jump!(target)
                        }
                    }
                    Op::JumpIfNotNullish { src, target } => {
                        if !reg!(src).is_nullish() {
                            jump!(target)
                        }
                    }
                    Op::JumpIfNotUndefined { src, target } => {
                        if !matches!(reg!(src), Value::Undefined) {
                            jump!(target)
                        }
                    }
                    Op::NewObject { dst } => reg!(dst) = tri!(self.new_object()),
                    Op::NewArray { dst } => reg!(dst) = tri!(self.new_array(Vec::new())),
                    Op::ArrayPush { arr, src } => {
                        let (a, v) = (reg!(arr), reg!(src));
                        tri!(self.array_push(a, v));
                    }
                    Op::GetNamed { dst, obj, k } => {
                        let atom = self.constant_atom(fi, k);
                        let o = reg!(obj);
                        // An own data property of a small plain object (records, `{ n, total }`):
                        // nothing exotic can answer first, so the slot is the value.
                        if let Value::Obj(id) = o
                            && let obj = self.heap.obj(id)
                            && matches!(obj.kind, ObjKind::Plain)
                            && !obj.props.is_indexed()
                            && let Some(slot) = obj.props.get(atom)
                            && slot.flags & crate::object::ACCESSOR == 0
                        {
                            reg!(dst) = slot.value();
                            continue;
                        }
                        let holder = match self.cached_method(o, atom) {
                            Ok(v) => {
                                reg!(dst) = v;
                                continue;
                            }
                            Err(holder) => holder,
                        };
                        match tri!(self.get(o, Key::Atom(atom))) {
                            crate::props::Got::Value(v) => {
                                reg!(dst) = v;
                                if let Some(holder) = holder {
                                    self.remember_method(holder, atom);
                                }
                            }
                            crate::props::Got::Getter(g) => {
                                switch_after!(
                                    self.call_value(g, o, &[], ReturnTo::Reg(dst))
                                        .and_then(|p| self.deliver_yielding(p))
                                );
                            }
                            crate::props::Got::Proxy(p, key) => switch_after!(self.proxy_get(p, key, o, dst)),
                        }
                    }
                    Op::GetIndex { dst, obj, key } => {
                        let (o, kv) = (reg!(obj), reg!(key));
                        // Fast path: array[number].
                        if let (Value::Obj(id), Value::Number(n)) = (o, kv)
                            && let ObjKind::Array(items) = &self.heap.obj(id).kind
                            && let Some(i) = crate::value::as_array_index(n)
                            && let Some(v) = items.get(i as usize)
                        {
                            reg!(dst) = *v;
                            continue;
                        }
                        match tri!(self.get_computed(o, kv)) {
                            crate::props::Got::Value(v) => reg!(dst) = v,
                            crate::props::Got::Getter(g) => {
                                switch_after!(
                                    self.call_value(g, o, &[], ReturnTo::Reg(dst))
                                        .and_then(|p| self.deliver_yielding(p))
                                );
                            }
                            crate::props::Got::Proxy(p, key) => switch_after!(self.proxy_get(p, key, o, dst)),
                        }
                    }
                    Op::SetNamed { obj, k, src } => {
                        let atom = self.constant_atom(fi, k);
                        let (o, v) = (reg!(obj), reg!(src));
                        // An existing own writable data property of a plain object that is not
                        // sealed or frozen: written in place (an own data property hides any
                        // setter further up the chain).
                        if let Value::Obj(id) = o
                            && let obj = self.heap.obj(id)
                            && matches!(obj.kind, ObjKind::Plain)
                            && obj.props.integrity == 0
                            && let Some(index) = obj.props.find(atom)
                            && let Some(slot) = self.heap.obj_mut(id).props.slot_mut(index)
                            && slot.flags & (crate::object::ACCESSOR | crate::object::READONLY) == 0
                        {
                            slot.set_value(v);
                            continue;
                        }
                        match tri!(self.set(o, Key::Atom(atom), v)) {
                            crate::props::SetFound::Done => {}
                            crate::props::SetFound::Setter(setter) => switch_after!(
                                self.call_value(setter, o, &[v], ReturnTo::Discard)
                                    .and_then(|p| self.deliver_yielding(p))
                            ),
                            crate::props::SetFound::Proxy(p) => {
                                switch_after!(self.proxy_set(p, Key::Atom(atom), v, o))
                            }
                        }
                    }
                    Op::SetIndex { obj, key, src } => {
                        let (o, kv, v) = (reg!(obj), reg!(key), reg!(src));
                        if let (Value::Obj(id), Value::Number(n)) = (o, kv)
                            && let obj = self.heap.obj_mut(id)
                            && obj.props.integrity == 0
                            && let ObjKind::Array(items) = &mut obj.kind
                            && let Some(i) = crate::value::as_array_index(n)
                            && let Some(slot) = items.get_mut(i as usize)
                        {
                            *slot = v;
                            continue;
                        }
                        let key = tri!(self.to_key(kv));
                        match tri!(self.set(o, key, v)) {
                            crate::props::SetFound::Done => {}
                            crate::props::SetFound::Setter(setter) => switch_after!(
                                self.call_value(setter, o, &[v], ReturnTo::Discard)
                                    .and_then(|p| self.deliver_yielding(p))
                            ),
                            crate::props::SetFound::Proxy(p) => switch_after!(self.proxy_set(p, key, v, o)),
                        }
                    }
                    Op::DefineNamed { obj, k, src } => {
                        let atom = self.constant_atom(fi, k);
                        let (o, v) = (reg!(obj), reg!(src));
                        tri!(self.define_named(o, atom, v));
                    }
                    // One arm (one copy of `call!`, whose frame push and register growth stay
                    // inlined only while they have few copies in this function).
                    Op::Call { dst, callee, args, argc, .. } | Op::CallPlain { dst, callee, args, argc } => {
                        let this = match *op {
                            Op::Call { this, .. } => Some(this),
                            _ => None,
                        };
                        call!(dst, reg!(callee), this.map_or(Value::Undefined, |r| reg!(r)), args, argc)
                    }
                    Op::CallSelf { dst, args, argc } => {
                        // The running closure calls itself: its code is this frame's, so the
                        // frame is pushed without looking at the callee object. Anything but a
                        // plain synchronous function (the compiler emits this for declared
                        // functions and named function expressions only) takes the general way.
                        let me = closure!();
                        if let Some(id) = me
                            && let Some(callee_code) = module.functions.get(fi as usize)
                            && !callee_code.is_async
                            && !callee_code.is_arrow
                            && callee_code.rest.is_none()
                            && callee_code.arguments.is_none()
                            && self.frames.len() < self.frame_room
                        {
                            self.charge_call(argc);
                            save_pc!();
                            let new_base = tri!(self.grow_stack(callee_code.register_count as usize));
                            let passed = (argc as usize).min(callee_code.param_count as usize);
                            self.copy_args(base + args as usize, new_base, passed);
                            self.frames.push(Frame::Js(crate::frame::JsFrame {
                                func: fi,
                                pc: 0,
                                base: new_base as u32,
                                this: Value::Undefined,
                                closure: Some(id),
                                ret: ReturnTo::Reg(dst),
                                async_promise: None,
                            }));
                            base = new_base;
                            pc = 0;
                            frame_entered!();
                        }
                        call_general!(
                            dst,
                            me.map_or(Value::Undefined, Value::Obj),
                            Value::Undefined,
                            args,
                            argc
                        )
                    }
                    Op::Return { src } => {
                        let v = reg!(src);
                        // Fast path: a synchronous frame returning into a JavaScript caller's register
                        // resumes the caller here.
                        let len = self.frames.len();
                        if len >= 2
                            && let Some(Frame::Js(top)) = self.frames.last()
                            && top.async_promise.is_none()
                            && let ReturnTo::Reg(dst) = top.ret
                            && let Some(Frame::Js(caller)) = self.frames.get(len - 2)
                            && let Some(caller_code) = module.functions.get(caller.func as usize)
                        {
                            let (caller_func, caller_pc, caller_base) =
                                (caller.func, caller.pc, caller.base as usize);
                            self.frames.pop();
                            self.stack.truncate(base);
                            if let Some(slot) = self.stack.get_mut(caller_base + dst as usize) {
                                *slot = v;
                            }
                            code = &caller_code.code[..];
                            fi = caller_func;
                            base = caller_base;
                            pc = caller_pc as usize;
                            continue;
                        }
                        // A loop's callback going on to the next element starts over in place.
                        save_pc!();
                        match crate::builtins::array_loop::return_in_place(self, v) {
                            Ok(InPlace::Restarted) => {
                                pc = 0;
                                frame_entered!();
                            }
                            Ok(InPlace::Finished) => {
                                // The loop ended (its value is in the caller's register): the
                                // JavaScript frame that called it goes on here.
                                let Some(Frame::Js(caller)) = self.frames.last() else {
                                    return Exit::Switch;
                                };
                                let Some(caller_code) = module.functions.get(caller.func as usize) else {
                                    return Exit::Switch;
                                };
                                (code, fi, base, pc) = (
                                    &caller_code.code[..],
                                    caller.func,
                                    caller.base as usize,
                                    caller.pc as usize,
                                );
                                frame_entered!();
                            }
                            Ok(InPlace::No) => {}
                            Err(e) => return Exit::Throw(e),
                        }
                        switch_after!(self.return_from_frame(v));
                    }
                    Op::IterNext { dst, iter, target } => {
                        let it = reg!(iter);
                        if let Value::ArrayIter(cursor) = it {
                            let (item, advanced) = self.array_iter_step(cursor.array(), cursor.next());
                            reg!(iter) = advanced;
                            match item {
                                Some(v) => reg!(dst) = v,
                                None => pc = target as usize,
                            }
                            continue;
                        }
                        if let Some(step) = self.native_step(it) {
                            match step {
                                Some(v) => reg!(dst) = v,
                                None => pc = target as usize,
                            }
                            continue;
                        }
                        if let Some(g) = tri!(self.as_sync_generator(it)) {
                            switch_after!(self.generator_iter_next(g, dst, target));
                        }
                        if self.is_user_iterator(it) {
                            switch_after!(self.user_iter_next(it, ReturnTo::IterStep { dst, target }));
                        }
                        match tri!(self.iter_next(it)) {
                            Some(v) => reg!(dst) = v,
                            None => pc = target as usize,
                        }
                    }
                    Op::LoadThis { dst } => {
                        let this = match self.frames.last() {
                            Some(Frame::Js(f)) => f.this,
                            _ => Value::Undefined,
                        };
                        if this == Value::Uninit {
                            throw!(self.this_before_super());
                        }
                        reg!(dst) = this;
                    }
                    Op::Concat { dst, start, count } => {
                        reg!(dst) = tri!(self.concat_registers(base + start as usize, count as usize));
                    }
                    Op::TemplateToString { dst, src } => {
                        let v = reg!(src);
                        reg!(dst) = match v {
                            Value::Str(_) => v,
                            Value::Obj(_) => {
                                save_pc!();
                                let convert = crate::to_primitive::ConvertOp::ToString;
                                if tri!(self.convert_with_user_code(
                                    convert,
                                    [v, Value::Undefined],
                                    1,
                                    ReturnTo::Reg(dst)
                                )) {
                                    return Exit::Switch;
                                }
                                tri!(self.to_string_value(v))
                            }
                            Value::Symbol(_) => tri!(self.to_string_value(v)),
                            // The template's `+` that follows converts any other primitive exactly
                            // as ToString would, without a string made here first.
                            _ => v,
                        };
                    }
                    // Arrays (for-of, destructuring) get their iterator here; everything else, and
                    // closing anything but a native iterator, goes the general way.
                    Op::GetIterator { dst, src } if self.array_iterates_natively(reg!(src)) => {
                        let Value::Obj(array) = reg!(src) else { continue };
                        reg!(dst) = Value::ArrayIter(crate::value::ArrayCursor::new(array, 0));
                    }
                    Op::IterClose { iter } if self.is_plain_native_iterator(reg!(iter)) => {}
                    _ => {
                        if let Err(exit) = self.execute_cold(op, &module, fi, base, pc) {
                            return exit;
                        }
                    }
                }
            }
        }
    }

    fn capture_cell(&self, closure: Option<crate::value::ObjId>, index: u16) -> Option<crate::value::CellId> {
        let id = closure?;
        match &self.heap.obj(id).kind {
            ObjKind::Function(Callable::Closure { captures, .. } | Callable::Class { captures, .. }) => {
                captures.get(index as usize).copied()
            }
            _ => None,
        }
    }
}

/// Binary operators on two numbers: the interpreter's fast path (no conversions can run).
#[inline(always)]
fn number_binary(op: codemode_bytecode::BinOp, x: f64, y: f64) -> Value {
    use crate::numconv::{to_int32, to_uint32};
    use codemode_bytecode::BinOp;
    match op {
        BinOp::Add => Value::Number(x + y),
        BinOp::Sub => Value::Number(x - y),
        BinOp::Mul => Value::Number(x * y),
        BinOp::Div => Value::Number(x / y),
        BinOp::Rem => Value::Number(crate::numconv::js_rem(x, y)),
        BinOp::Lt => Value::Bool(x < y),
        BinOp::LtEq => Value::Bool(x <= y),
        BinOp::Gt => Value::Bool(x > y),
        BinOp::GtEq => Value::Bool(x >= y),
        BinOp::Eq | BinOp::StrictEq => Value::Bool(x == y),
        BinOp::NotEq | BinOp::StrictNotEq => Value::Bool(x != y),
        BinOp::BitAnd => Value::Number((to_int32(x) & to_int32(y)) as f64),
        BinOp::BitOr => Value::Number((to_int32(x) | to_int32(y)) as f64),
        BinOp::BitXor => Value::Number((to_int32(x) ^ to_int32(y)) as f64),
        BinOp::Shl => Value::Number(to_int32(x).wrapping_shl(to_uint32(y) & 31) as f64),
        BinOp::Shr => Value::Number((to_int32(x) >> (to_uint32(y) & 31)) as f64),
        BinOp::UShr => Value::Number((to_uint32(x) >> (to_uint32(y) & 31)) as f64),
        BinOp::Exp => Value::Number(if y.is_nan() || ((x == 1.0 || x == -1.0) && y.is_infinite()) {
            f64::NAN
        } else {
            x.powf(y)
        }),
        // `in` and `instanceof` on numbers throw; the slow path reports it.
        BinOp::In | BinOp::InstanceOf => Value::Undefined,
    }
}

/// A comparison operator on two numbers (the fused compare-and-jump instructions' fast path).
#[inline(always)]
fn number_compare(op: codemode_bytecode::BinOp, x: f64, y: f64) -> bool {
    use codemode_bytecode::BinOp;
    match op {
        BinOp::Lt => x < y,
        BinOp::LtEq => x <= y,
        BinOp::Gt => x > y,
        BinOp::GtEq => x >= y,
        BinOp::Eq | BinOp::StrictEq => x == y,
        BinOp::NotEq | BinOp::StrictNotEq => x != y,
        // The compiler fuses comparisons only.
        _ => false,
    }
}
