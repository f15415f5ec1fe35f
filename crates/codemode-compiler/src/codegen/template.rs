//! Template literals: their pieces joined by one `Concat`.

use codemode_ir::Expr;

use super::{CompileError, FnCompiler};
use crate::bytecode::{BinOp, Op, Reg};

/// Pieces a template literal joins with one `Concat` at most (its registers are consecutive).
const MAX_CONCAT_PIECES: u16 = 64;

impl<'a> FnCompiler<'a> {
    /// A template literal: its pieces (the non-empty strings and each substitution, objects
    /// converted in order by `TemplateToString`) in consecutive registers, joined by one
    /// `Concat` (no string per `+`); a very long one is joined piece by piece.
    pub(super) fn template(
        &mut self,
        quasis: &'a [String],
        exprs: &'a [Expr],
        dst: Reg,
    ) -> Result<(), CompileError> {
        let first = quasis.first().map_or("", String::as_str);
        if exprs.is_empty() {
            let k = self.string_const(first);
            self.emit(Op::LoadConst { dst, k })?;
            return Ok(());
        }
        enum Piece<'e> {
            Text(&'e str),
            Sub(&'e Expr),
        }
        let mut pieces = Vec::with_capacity(2 * exprs.len() + 1);
        if !first.is_empty() {
            pieces.push(Piece::Text(first));
        }
        for (i, x) in exprs.iter().enumerate() {
            pieces.push(Piece::Sub(x));
            if let Some(q) = quasis.get(i + 1).filter(|q| !q.is_empty()) {
                pieces.push(Piece::Text(q));
            }
        }
        let count = match u16::try_from(pieces.len()) {
            Ok(count) if count <= MAX_CONCAT_PIECES => count,
            _ => return self.template_by_pieces(quasis, exprs, dst),
        };
        let regs = self.alloc_regs(count)?;
        let start = regs.start;
        for (piece, r) in pieces.into_iter().zip(regs) {
            match piece {
                Piece::Text(text) => {
                    let k = self.string_const(text);
                    self.emit(Op::LoadConst { dst: r, k })?;
                }
                Piece::Sub(x) => {
                    self.expr(x, r)?;
                    self.emit(Op::TemplateToString { dst: r, src: r })?;
                }
            }
        }
        self.emit(Op::Concat { dst, start, count })?;
        Ok(())
    }

    /// A template literal of more than [`MAX_CONCAT_PIECES`] pieces: a string `+` per piece.
    fn template_by_pieces(
        &mut self,
        quasis: &[String],
        exprs: &'a [Expr],
        dst: Reg,
    ) -> Result<(), CompileError> {
        let first = quasis.first().map_or("", String::as_str);
        let k = self.string_const(first);
        self.emit(Op::LoadConst { dst, k })?;
        let t = self.alloc_reg()?;
        for (i, x) in exprs.iter().enumerate() {
            self.expr(x, t)?;
            self.emit(Op::TemplateToString { dst: t, src: t })?;
            self.emit(Op::Binary { op: BinOp::Add, dst, a: dst, b: t })?;
            if let Some(q) = quasis.get(i + 1).filter(|q| !q.is_empty()) {
                let k = self.string_const(q);
                self.emit(Op::LoadConst { dst: t, k })?;
                self.emit(Op::Binary { op: BinOp::Add, dst, a: dst, b: t })?;
            }
        }
        Ok(())
    }
}
