//! Generators: `yield` and `yield*`.
//!
//! `Yield` suspends the frame and gives its value to whoever resumed the generator. It resumes in
//! one of three ways: `next(v)` (the yield's value is `v`), `throw(e)` (the VM throws `e` at the
//! yield, so the generator's own `try`/`catch` sees it) and `return(v)` (`mode` is true: the code
//! after the yield returns `v` exactly like a `return` statement there, running the inline
//! `finally` copies and closing the for-of iterators being left).
//!
//! `yield* inner` is a loop over the iteration protocol: `inner.next(v)` / `throw(e)` / `return(v)`
//! as the outer generator is resumed, each result's `value` yielded until one is `done`.

use codemode_ir::Expr;

use super::{CompileError, FnCompiler};
use crate::bytecode::{ErrorKind, Handler, Op, Reg};

impl<'a> FnCompiler<'a> {
    /// `yield arg` into `dst`.
    pub(super) fn yield_expr(&mut self, arg: Option<&'a Expr>, dst: Reg) -> Result<(), CompileError> {
        let src = match arg {
            Some(a) => self.expr_any(a)?,
            None => {
                let r = self.alloc_reg()?;
                self.emit(Op::LoadUndef { dst: r })?;
                r
            }
        };
        let mode = self.alloc_reg()?;
        let src = if self.func.is_async {
            // An async generator yields the settled value: `yield await v`.
            let r = self.alloc_reg()?;
            self.emit(Op::Await { dst: r, src })?;
            r
        } else {
            src
        };
        self.emit(Op::Yield { dst, mode, src })?;
        let resume = self.emit(Op::JumpIfFalse { src: mode, target: 0 })?;
        self.return_reg(dst)?;
        self.patch_here(resume);
        Ok(())
    }

    /// `return r` from here: the inline `finally` copies of every enclosing `try`, then `Return`.
    pub(super) fn return_reg(&mut self, r: Reg) -> Result<(), CompileError> {
        self.run_finally_blocks(0)?;
        self.emit(Op::Return { src: r })?;
        Ok(())
    }

    /// One step of `for await`: `value = await (await iter.next()).value`, or a jump (returned,
    /// to be patched to the loop's exit) when the result is done. The value is awaited again so
    /// that arrays of promises (and other synchronous iterables) give their settled values.
    pub(super) fn for_await_step(&mut self, iter: Reg, value: Reg) -> Result<usize, CompileError> {
        let mark = self.temp_mark();
        let f = self.alloc_reg()?;
        let res = self.alloc_reg()?;
        let next_k = self.string_const("next");
        let done_k = self.string_const("done");
        let value_k = self.string_const("value");
        self.emit(Op::GetNamed { dst: f, obj: iter, k: next_k })?;
        self.emit(Op::Call { dst: res, callee: f, this: iter, args: res, argc: 0 })?;
        self.emit(Op::Await { dst: res, src: res })?;
        self.emit(Op::GetNamed { dst: f, obj: res, k: done_k })?;
        let exit = self.emit(Op::JumpIfTrue { src: f, target: 0 })?;
        self.emit(Op::GetNamed { dst: value, obj: res, k: value_k })?;
        self.emit(Op::Await { dst: value, src: value })?;
        self.free_to(mark);
        Ok(exit)
    }

    /// In an async generator, `r = await r` (the inner iterator's results are promises).
    fn await_in_async(&mut self, r: Reg) -> Result<(), CompileError> {
        if self.func.is_async {
            self.emit(Op::Await { dst: r, src: r })?;
        }
        Ok(())
    }

    /// `r = check(r)`: `#internal.requireIterObject` (in register `check`) throws a TypeError when
    /// `r` is not an object.
    fn require_object(&mut self, check: Reg, r: Reg) -> Result<(), CompileError> {
        self.emit(Op::CallPlain { dst: r, callee: check, args: r, argc: 1 })?;
        Ok(())
    }

    /// `r = await r` when register `sync` is true: a synchronous iterator delegated to by an
    /// async generator's `yield*` gives its values settled, as the spec's async-from-sync
    /// wrapper does. Nothing outside async generators (`sync` is `None` there).
    fn await_if_sync(&mut self, sync: Option<Reg>, r: Reg) -> Result<(), CompileError> {
        if let Some(sync) = sync {
            let skip = self.emit(Op::JumpIfFalse { src: sync, target: 0 })?;
            self.emit(Op::Await { dst: r, src: r })?;
            self.patch_here(skip);
        }
        Ok(())
    }

    /// The iterator `yield*` delegates to, into `it`. In a generator, `src[Symbol.iterator]()`.
    /// In an async generator, `src[Symbol.asyncIterator]()`, or when it has none its
    /// `[Symbol.iterator]()` with the returned register set true (the values that iterator gives
    /// are then awaited).
    fn delegate_iterator(&mut self, src: Reg, it: Reg, check: Reg) -> Result<Option<Reg>, CompileError> {
        if !self.func.is_async {
            self.emit(Op::GetIteratorObject { dst: it, src })?;
            return Ok(None);
        }
        let sync = self.alloc_reg()?;
        let method = self.alloc_reg()?;
        let k = self.string_const(codemode_bytecode::ASYNC_ITERATOR_SYMBOL);
        self.emit(Op::LoadInternal { dst: method, k })?;
        self.emit(Op::GetIndex { dst: method, obj: src, key: method })?;
        self.emit(Op::LoadFalse { dst: sync })?;
        let no_method = self.emit(Op::JumpIfNullish { src: method, target: 0 })?;
        self.emit(Op::Call { dst: it, callee: method, this: src, args: it, argc: 0 })?;
        self.require_object(check, it)?;
        let have = self.emit(Op::Jump { target: 0 })?;
        self.patch_here(no_method);
        self.emit(Op::GetIteratorObject { dst: it, src })?;
        self.emit(Op::LoadTrue { dst: sync })?;
        self.patch_here(have);
        Ok(Some(sync))
    }

    /// `yield* inner` into `dst`.
    pub(super) fn yield_star(&mut self, inner: &'a Expr, dst: Reg) -> Result<(), CompileError> {
        let src = self.expr_any(inner)?;
        let it = self.alloc_reg()?;
        let check = self.alloc_reg()?;
        let check_k = self.string_const("#internal.requireIterObject");
        self.emit(Op::LoadInternal { dst: check, k: check_k })?;
        let sync = self.delegate_iterator(src, it, check)?;
        let recv = self.alloc_reg()?;
        let mode = self.alloc_reg()?;
        let res = self.alloc_reg()?;
        let f = self.alloc_reg()?;
        let next_fn = self.alloc_reg()?;
        let arg = self.alloc_reg()?;
        let done = self.alloc_reg()?;
        let next_k = self.string_const("next");
        let throw_k = self.string_const("throw");
        let return_k = self.string_const("return");
        let done_k = self.string_const("done");
        let value_k = self.string_const("value");
        // `next` is read once, when the delegation starts (the iterator record's next method).
        self.emit(Op::GetNamed { dst: next_fn, obj: it, k: next_k })?;
        self.emit(Op::LoadUndef { dst: recv })?;
        self.emit(Op::LoadFalse { dst: mode })?;

        // The loop: resumed by next (or at the start), by return (`mode`), or by throw (the
        // handler around the yield).
        let top = self.pc();
        let to_return = self.emit(Op::JumpIfTrue { src: mode, target: 0 })?;
        self.emit(Op::Move { dst: arg, src: recv })?;
        self.emit(Op::Call { dst: res, callee: next_fn, this: it, args: arg, argc: 1 })?;
        self.await_in_async(res)?;
        self.require_object(check, res)?;
        let after_next = self.emit(Op::Jump { target: 0 })?;

        // throw(e): the inner iterator's `throw`, or close it and fail when it has none.
        let on_throw = self.pc();
        self.emit(Op::GetNamed { dst: f, obj: it, k: throw_k })?;
        let has_throw = self.emit(Op::JumpIfNotNullish { src: f, target: 0 })?;
        self.emit(Op::IterClose { iter: it })?;
        let k = self.string_const("The iterator does not provide a 'throw' method");
        self.emit(Op::ThrowError { kind: ErrorKind::TypeError, k })?;
        self.patch_here(has_throw);
        self.emit(Op::Move { dst: arg, src: recv })?;
        self.emit(Op::Call { dst: res, callee: f, this: it, args: arg, argc: 1 })?;
        self.await_in_async(res)?;
        self.require_object(check, res)?;
        let after_throw = self.emit(Op::Jump { target: 0 })?;

        // return(v): the inner iterator's `return`, or return `v` at once when it has none; a
        // done result returns its value from the outer generator.
        self.patch_here(to_return);
        self.emit(Op::GetNamed { dst: f, obj: it, k: return_k })?;
        let has_return = self.emit(Op::JumpIfNotNullish { src: f, target: 0 })?;
        self.await_in_async(recv)?;
        self.return_reg(recv)?;
        self.patch_here(has_return);
        self.emit(Op::Move { dst: arg, src: recv })?;
        self.emit(Op::Call { dst: res, callee: f, this: it, args: arg, argc: 1 })?;
        self.await_in_async(res)?;
        self.require_object(check, res)?;
        self.emit(Op::GetNamed { dst: done, obj: res, k: done_k })?;
        let not_done = self.emit(Op::JumpIfFalse { src: done, target: 0 })?;
        self.emit(Op::GetNamed { dst: recv, obj: res, k: value_k })?;
        self.await_if_sync(sync, recv)?;
        self.await_in_async(recv)?;
        self.return_reg(recv)?;

        // next/throw results: done ends the loop with the value.
        self.patch_here(after_next);
        self.patch_here(after_throw);
        self.emit(Op::GetNamed { dst: done, obj: res, k: done_k })?;
        let finished = self.emit(Op::JumpIfTrue { src: done, target: 0 })?;
        self.patch_here(not_done);
        self.emit(Op::GetNamed { dst: f, obj: res, k: value_k })?;
        self.await_if_sync(sync, f)?;
        let at = self.emit(Op::Yield { dst: recv, mode, src: f })? as u32;
        self.handlers.push(Handler { start: at, end: at + 1, target: on_throw, exception: recv });
        self.emit(Op::Jump { target: top })?;
        self.patch_here(finished);
        self.emit(Op::GetNamed { dst, obj: res, k: value_k })?;
        self.await_if_sync(sync, dst)?;
        Ok(())
    }
}
