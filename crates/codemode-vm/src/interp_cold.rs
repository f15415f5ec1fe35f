//! The interpreter's cold instructions: classes, private names, generators and iteration set-up,
//! spreads, `delete`, `new`, `throw` and the rest that a hot loop runs rarely.
//!
//! They live outside [`Vm::execute`](crate::interp) so that the instruction loop stays small:
//! its hot state (the code slice, `pc`, the register base) then keeps to machine registers
//! instead of being spilled around every arm. Each arm here is written exactly as it would be in
//! the loop; `Err(exit)` leaves the loop the way `return exit` would there.

use codemode_bytecode::{ErrorKind, Op, VerifiedModule};

use crate::Vm;
use crate::frame::{Frame, ReturnTo};
use crate::interp::Exit;
use crate::meter::Work;
use crate::value::Value;

impl Vm {
    /// Runs one cold instruction of the top frame (`pc` already points past it). `Ok(())` goes
    /// on with the next instruction; `Err(exit)` leaves the instruction loop.
    #[inline(never)]
    pub(crate) fn execute_cold(
        &mut self,
        op: &Op,
        module: &VerifiedModule,
        fi: u32,
        base: usize,
        pc: usize,
    ) -> Result<(), Exit> {
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
                return Err(Exit::Throw($e));
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
        macro_rules! switch_after {
            ($e:expr) => {{
                save_pc!();
                match $e {
                    Ok(()) => return Err(Exit::Switch),
                    Err(e) => return Err(Exit::Throw(e)),
                }
            }};
        }

        match *op {
            Op::TypeofGlobal { dst, k } => {
                let atom = self.constant_atom(fi, k);
                let v = self.get_global(atom).unwrap_or(Value::Undefined);
                reg!(dst) = tri!(self.typeof_value(v));
            }
            Op::ToPropertyKey { dst, src } => {
                let v = reg!(src);
                if let Value::Obj(_) = v {
                    let convert = crate::to_primitive::ConvertOp::ToPropertyKey;
                    save_pc!();
                    if tri!(self.convert_with_user_code(
                        convert,
                        [v, Value::Undefined],
                        1,
                        ReturnTo::Reg(dst)
                    )) {
                        return Err(Exit::Switch);
                    }
                }
                reg!(dst) = tri!(self.to_property_key_value(v));
            }
            Op::ArrayHole { arr } => {
                let a = reg!(arr);
                tri!(self.array_push(a, Value::Undefined));
            }
            Op::ArraySpread { arr, src } => {
                let (a, s) = (reg!(arr), reg!(src));
                if let (Some(g), Value::Obj(array)) = (tri!(self.as_sync_generator(s)), a) {
                    let step = self.drain_generator(g, crate::generator::DrainInto::Array(array));
                    switch_after!(
                        self.apply_step(step, ReturnTo::Discard).and_then(|p| self.deliver_yielding(p))
                    );
                }
                if let (Some(method), Value::Obj(array)) = (tri!(self.user_iterator_method(s)), a) {
                    let then = crate::user_iter::DrainThen::Into(crate::generator::DrainInto::Array(array));
                    let step = self.drain_user_iterable(s, method, then);
                    switch_after!(
                        self.apply_step(step, ReturnTo::Discard).and_then(|p| self.deliver_yielding(p))
                    );
                }
                let items = tri!(self.collect_iterable(s));
                self.charge(Work::Elements(items.len()));
                for v in items {
                    tri!(self.array_push(a, v));
                }
            }
            Op::ObjectSpread { obj, src } => {
                let (o, s) = (reg!(obj), reg!(src));
                if let Some(step) = tri!(self.copy_data_properties(o, s, &[])) {
                    switch_after!(
                        self.apply_step(step, ReturnTo::Discard).and_then(|p| self.deliver_yielding(p))
                    );
                }
            }
            Op::DefineIndex { obj, key, src } => {
                let (o, kv, v) = (reg!(obj), reg!(key), reg!(src));
                let key = tri!(self.to_key(kv));
                tri!(self.define(o, key, v));
            }
            Op::DefineGetter { obj, key, func } => {
                let (o, kv, f) = (reg!(obj), reg!(key), reg!(func));
                let key = tri!(self.to_key(kv));
                tri!(self.define_accessor(o, key, Some(f), None));
            }
            Op::DefineSetter { obj, key, func } => {
                let (o, kv, f) = (reg!(obj), reg!(key), reg!(func));
                let key = tri!(self.to_key(kv));
                tri!(self.define_accessor(o, key, None, Some(f)));
            }
            Op::Delete { dst, obj, key } => {
                let (o, kv) = (reg!(obj), reg!(key));
                let key = tri!(self.to_key(kv));
                if let Some(p) = self.as_proxy(o) {
                    switch_after!(self.proxy_delete(p, key, dst));
                }
                reg!(dst) = Value::Bool(tri!(self.delete(o, key)));
            }
            Op::CallSpread { dst, callee, this, arr } => {
                self.charge(Work::Units(1));
                let (f, t, a) = (reg!(callee), reg!(this), reg!(arr));
                if !self.is_callable(f) {
                    throw!(self.not_a_function_in(f, module, fi, pc - 1));
                }
                let argv = self.array_items(a);
                self.charge(Work::Elements(argv.len()));
                switch_after!(
                    self.call_value(f, t, &argv, ReturnTo::Reg(dst)).and_then(|p| self.deliver_yielding(p))
                );
            }
            Op::New { dst, callee, args, argc } => {
                self.charge(Work::Units(1));
                let f = reg!(callee);
                let start = base + args as usize;
                let argv: Vec<Value> = self.stack.get(start..start + argc as usize).unwrap_or(&[]).to_vec();
                switch_after!(self.construct(f, &argv, dst));
            }
            Op::NewSpread { dst, callee, arr } => {
                self.charge(Work::Units(1));
                let (f, a) = (reg!(callee), reg!(arr));
                let argv = self.array_items(a);
                switch_after!(self.construct(f, &argv, dst));
            }
            Op::Await { dst, src } => {
                let v = reg!(src);
                switch_after!(self.promise_resolve(v).and_then(|p| self.suspend_at_await(p, dst)));
            }
            Op::GeneratorStart => switch_after!(self.start_generator()),
            Op::Yield { src, .. } => {
                let v = reg!(src);
                self.charge(Work::Call { args: 0 });
                switch_after!(self.generator_yield(v));
            }
            Op::IterClose { iter } => {
                let it = reg!(iter);
                save_pc!();
                if tri!(self.iter_close(it)) || tri!(self.user_iter_close(it)) {
                    return Err(Exit::Switch);
                }
            }
            Op::Throw { src } => {
                let v = reg!(src);
                throw!(v);
            }
            Op::ThrowError { kind, k } => {
                let msg = self.constant_str(fi, k);
                throw!(self.make_error(kind, &msg));
            }
            Op::GetIterator { dst, src }
            | Op::GetIteratorObject { dst, src }
            | Op::GetAsyncIterator { dst, src } => {
                let v = reg!(src);
                let is_async = matches!(op, Op::GetAsyncIterator { .. });
                match tri!(self.start_iteration(v, is_async)) {
                    crate::user_iter::IterStart::Ready(it) => reg!(dst) = it,
                    crate::user_iter::IterStart::Call(method) => switch_after!(
                        self.call_value(method, v, &[], ReturnTo::Iterator(dst))
                            .and_then(|p| self.deliver_yielding(p))
                    ),
                }
            }
            Op::ForInKeys { dst, src } => {
                let v = reg!(src);
                if self.chain_has_proxy(v) {
                    switch_after!(
                        self.proxy_keys(v, crate::proxy_keys::KeysMode::ForIn)
                            .and_then(|s| self.apply_step(s, ReturnTo::Reg(dst)))
                            .and_then(|p| self.deliver_yielding(p))
                    );
                }
                reg!(dst) = tri!(self.for_in_iterator(v));
            }
            Op::IterRest { dst, iter } => {
                let it = reg!(iter);
                if let Value::ArrayIter(cursor) = it {
                    let items = self.array_iter_rest(cursor.array(), cursor.next());
                    self.charge(crate::meter::Work::Elements(items.len()));
                    let done = crate::value::ArrayCursor::new(cursor.array(), crate::value::ARRAY_ITER_DONE);
                    reg!(iter) = Value::ArrayIter(done);
                    reg!(dst) = tri!(self.new_array(items));
                    return Ok(());
                }
                if let Some(g) = tri!(self.as_sync_generator(it)) {
                    let array = tri!(self.new_array(Vec::new()));
                    reg!(dst) = array;
                    if let Value::Obj(array) = array {
                        let step = self.drain_generator(g, crate::generator::DrainInto::Array(array));
                        switch_after!(
                            self.apply_step(step, ReturnTo::Discard).and_then(|p| self.deliver_yielding(p))
                        );
                    }
                }
                if self.is_user_iterator(it) {
                    let array = tri!(self.new_array(Vec::new()));
                    reg!(dst) = array;
                    if let Value::Obj(array) = array {
                        let into = crate::generator::DrainInto::Array(array);
                        switch_after!(
                            self.drain_user_iterator(it, into)
                                .and_then(|step| self.apply_step(step, ReturnTo::Discard))
                                .and_then(|p| self.deliver_yielding(p))
                        );
                    }
                }
                let mut items = Vec::new();
                while let Some(v) = tri!(self.iter_next(it)) {
                    items.push(v);
                }
                reg!(dst) = tri!(self.new_array(items));
            }
            Op::ObjectRest { dst, src, excluded, count } => {
                let s = reg!(src);
                let start = base + excluded as usize;
                let keys: Vec<Value> = self.stack.get(start..start + count as usize).unwrap_or(&[]).to_vec();
                let o = tri!(self.new_object());
                reg!(dst) = o;
                if let Some(step) = tri!(self.copy_data_properties(o, s, &keys)) {
                    switch_after!(
                        self.apply_step(step, ReturnTo::Reg(dst)).and_then(|p| self.deliver_yielding(p))
                    );
                }
            }
            Op::Regex { dst, k } => {
                let f = fi;
                let v = tri!(self.regex_from_constant(f, k));
                reg!(dst) = v;
            }
            Op::Class { dst, func: f, parent, fields } => {
                let (p, fl) = (reg!(parent), reg!(fields));
                let v = tri!(self.make_class(f, closure!(), base, p, fl));
                reg!(dst) = v;
            }
            Op::DefineMethod { obj, key, func: f, kind } => {
                let (o, kv, fv) = (reg!(obj), reg!(key), reg!(f));
                let key = tri!(self.to_key(kv));
                tri!(self.define_method(o, key, fv, kind));
            }
            Op::SuperCall { dst, args, argc } => {
                self.charge(Work::Call { args: argc as usize });
                let start = base + args as usize;
                let argv: Vec<Value> = self.stack.get(start..start + argc as usize).unwrap_or(&[]).to_vec();
                switch_after!(self.super_call(&argv, dst));
            }
            Op::SuperCallSpread { dst, arr } => {
                let a = reg!(arr);
                let argv = self.array_items(a);
                self.charge(Work::Call { args: argv.len() });
                switch_after!(self.super_call(&argv, dst));
            }
            Op::GetSuper { dst, home, key } => {
                let (h, kv) = (reg!(home), reg!(key));
                let this = match self.frames.last() {
                    Some(Frame::Js(f)) => f.this,
                    _ => Value::Undefined,
                };
                let parent = match h {
                    Value::Obj(id) => self.heap.obj(id).proto.map_or(Value::Null, Value::Obj),
                    _ => Value::Undefined,
                };
                match tri!(self.get_computed(parent, kv)) {
                    crate::props::Got::Value(v) => reg!(dst) = v,
                    crate::props::Got::Getter(g) => {
                        switch_after!(
                            self.call_value(g, this, &[], ReturnTo::Reg(dst))
                                .and_then(|p| self.deliver_yielding(p))
                        );
                    }
                    crate::props::Got::Proxy(p, key) => switch_after!(self.proxy_get(p, key, this, dst)),
                }
            }
            Op::GetPrivate { dst, obj, key } => {
                let (o, kv) = (reg!(obj), reg!(key));
                match tri!(self.private_get(o, kv)) {
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
            Op::SetPrivate { obj, key, src } => {
                let (o, kv, v) = (reg!(obj), reg!(key), reg!(src));
                if let Some(setter) = tri!(self.private_set(o, kv, v)) {
                    switch_after!(
                        self.call_value(setter, o, &[v], ReturnTo::Discard)
                            .and_then(|p| self.deliver_yielding(p))
                    );
                }
            }
            Op::DefinePrivate { obj, key, src } => {
                let (o, kv, v) = (reg!(obj), reg!(key), reg!(src));
                tri!(self.private_define(o, kv, v));
            }
            Op::HasPrivate { dst, obj, key } => {
                let (o, kv) = (reg!(obj), reg!(key));
                reg!(dst) = Value::Bool(tri!(self.private_has(o, kv)));
            }
            Op::NewTarget { dst } => {
                reg!(dst) = match self.frames.last() {
                    Some(Frame::Js(f)) => match f.ret {
                        ReturnTo::Construct { new_target, .. }
                        | ReturnTo::ConstructDerived { new_target, .. } => Value::Obj(new_target),
                        _ => Value::Undefined,
                    },
                    _ => Value::Undefined,
                };
            }
            Op::SetProto { obj, src } => {
                if let Value::Obj(o) = reg!(obj) {
                    match reg!(src) {
                        Value::Obj(p) => self.heap.obj_mut(o).proto = Some(p),
                        Value::Null => self.heap.obj_mut(o).proto = None,
                        _ => {}
                    }
                }
            }
            Op::Nop => {}
            Op::LoadInternal { dst, k } => reg!(dst) = tri!(self.load_internal(fi, k)),
            // `Vm::execute` runs these itself; listed so that a new instruction must be placed.
            Op::LoadUndef { .. }
            | Op::LoadNull { .. }
            | Op::LoadTrue { .. }
            | Op::LoadFalse { .. }
            | Op::LoadUninit { .. }
            | Op::LoadInt { .. }
            | Op::LoadConst { .. }
            | Op::Move { .. }
            | Op::CheckTdz { .. }
            | Op::GetGlobal { .. }
            | Op::NewCell { .. }
            | Op::LoadCell { .. }
            | Op::StoreCell { .. }
            | Op::LoadCapture { .. }
            | Op::LoadCallee { .. }
            | Op::StoreCapture { .. }
            | Op::Closure { .. }
            | Op::Binary { .. }
            | Op::BinaryInt { .. }
            | Op::Unary { .. }
            | Op::Inc { .. }
            | Op::Dec { .. }
            | Op::ToNumeric { .. }
            | Op::Jump { .. }
            | Op::JumpIfTrue { .. }
            | Op::JumpIfFalse { .. }
            | Op::JumpUnlessCompare { .. }
            | Op::JumpUnlessCompareInt { .. }
            | Op::JumpIfNullish { .. }
            | Op::JumpIfNotNullish { .. }
            | Op::JumpIfNotUndefined { .. }
            | Op::NewObject { .. }
            | Op::NewArray { .. }
            | Op::ArrayPush { .. }
            | Op::GetNamed { .. }
            | Op::GetIndex { .. }
            | Op::SetNamed { .. }
            | Op::SetIndex { .. }
            | Op::DefineNamed { .. }
            | Op::Call { .. }
            | Op::CallPlain { .. }
            | Op::CallSelf { .. }
            | Op::Return { .. }
            | Op::IterNext { .. }
            | Op::LoadThis { .. }
            | Op::TemplateToString { .. }
            | Op::Concat { .. } => {
                throw!(
                    self.make_error(
                        ErrorKind::Error,
                        "internal error: a hot instruction reached the cold path"
                    )
                )
            }
        }
        Ok(())
    }
}
