//! Lowering binding patterns, assignment targets, assignments and updates.
//!
//! Binding patterns (declarations, parameters, catch parameters, `for` heads with a declaration)
//! initialize bindings, `const` ones included. Assignment targets (`x = ..`, `[a, o.b] = ..`,
//! `for (x of ..)`) may be members, and assigning to a `const` binding throws at run time, which
//! is lowered with [`ExprKind::ThrowConstAssign`] (see its documentation for the exact shapes).

use swc_common::Spanned;
use swc_ecma_ast::{
    self as ast, AssignTarget, AssignTargetPat, Expr, ObjectPatProp, Pat, SimpleAssignTarget,
};

use super::expr::{Operator, binary_op, strip_parens_and_types};
use super::scope::Access;
use super::{LowerResult, Lowerer};
use crate::ir::{
    self, BinaryOp, ExprKind, LogicalOp, Pattern, PatternProp, PropKey, Property, UpdateOp, VarKind,
};

/// Whether a pattern declares bindings or assigns to existing targets.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Bind,
    Assign,
}

/// An identifier as an assignment target.
enum IdentTarget {
    /// A writable binding; `tdz_read` is a TDZ-checked read of it when it may be uninitialized
    /// (writing to a `let` in its TDZ throws), to evaluate before the write.
    Writable { var: ir::VarRef, tdz_read: Option<ir::Expr> },
    /// A `const` binding: `read` is a read of it (TDZ-checked when needed), `name` for the error.
    Const { read: ir::Expr, name: String },
}

impl Lowerer<'_> {
    /// A pattern that declares bindings (they must already be declared in scope).
    pub(crate) fn lower_binding_pattern(&mut self, pat: &Pat) -> LowerResult<Pattern> {
        self.lower_pattern(pat, Mode::Bind)
    }

    /// A pattern that assigns to existing targets (`[a, b] = ..`, `for (x of ..)`).
    pub(crate) fn lower_assign_pattern(&mut self, pat: &Pat) -> LowerResult<Pattern> {
        self.lower_pattern(pat, Mode::Assign)
    }

    fn lower_pattern(&mut self, pat: &Pat, mode: Mode) -> LowerResult<Pattern> {
        self.enter(pat.span())?;
        let pattern = self.lower_pattern_inner(pat, mode)?;
        self.leave();
        Ok(pattern)
    }

    fn lower_pattern_inner(&mut self, pat: &Pat, mode: Mode) -> LowerResult<Pattern> {
        Ok(match pat {
            Pat::Ident(binding) => {
                self.check_assign_target(&binding.id, mode)?;
                self.ident_pattern(&binding.id, mode)
            }
            Pat::Array(array) => self.array_pattern(array, mode)?,
            Pat::Object(object) => self.object_pattern(object, mode)?,
            Pat::Assign(assign) => {
                let name = match &*assign.left {
                    Pat::Ident(binding) => Some(binding.id.sym.to_string()),
                    _ => None,
                };
                Pattern::Default {
                    target: Box::new(self.lower_pattern(&assign.left, mode)?),
                    default: Box::new(self.lower_named_expr(&assign.right, name.as_deref())?),
                }
            }
            Pat::Rest(rest) => return Err(self.parse_error("Unexpected rest element", rest.span)),
            Pat::Expr(expr) if mode == Mode::Assign => self.expr_target(expr)?,
            Pat::Expr(expr) => return Err(self.parse_error("Invalid destructuring target", expr.span())),
            Pat::Invalid(invalid) => {
                return Err(self.parse_error("Invalid destructuring target", invalid.span));
            }
        })
    }

    fn array_pattern(&mut self, array: &ast::ArrayPat, mode: Mode) -> LowerResult<Pattern> {
        let mut elems = Vec::with_capacity(array.elems.len());
        let mut rest = None;
        for (index, elem) in array.elems.iter().enumerate() {
            match elem {
                Some(Pat::Rest(rest_pat)) => {
                    if index + 1 != array.elems.len() {
                        return Err(self.parse_error("Rest element must be last element", rest_pat.span));
                    }
                    rest = Some(Box::new(self.lower_pattern(&rest_pat.arg, mode)?));
                }
                Some(elem) => elems.push(Some(self.lower_pattern(elem, mode)?)),
                None => elems.push(None),
            }
        }
        Ok(Pattern::Array { elems, rest })
    }

    fn object_pattern(&mut self, object: &ast::ObjectPat, mode: Mode) -> LowerResult<Pattern> {
        let mut props = Vec::with_capacity(object.props.len());
        let mut rest = None;
        for (index, prop) in object.props.iter().enumerate() {
            match prop {
                ObjectPatProp::KeyValue(kv) => {
                    let key = self.prop_key(&kv.key)?;
                    let value = self.lower_pattern(&kv.value, mode)?;
                    props.push(PatternProp { key, value });
                }
                ObjectPatProp::Assign(assign) => {
                    let name = assign.key.id.sym.to_string();
                    self.check_assign_target(&assign.key.id, mode)?;
                    let target = self.ident_pattern(&assign.key.id, mode);
                    let value = match &assign.value {
                        Some(default) => Pattern::Default {
                            target: Box::new(target),
                            default: Box::new(self.lower_named_expr(default, Some(&name))?),
                        },
                        None => target,
                    };
                    props.push(PatternProp { key: PropKey::Named(name), value });
                }
                ObjectPatProp::Rest(rest_pat) => {
                    if index + 1 != object.props.len() {
                        return Err(self.parse_error("Rest element must be last element", rest_pat.span));
                    }
                    rest = Some(Box::new(self.lower_pattern(&rest_pat.arg, mode)?));
                }
            }
        }
        Ok(Pattern::Object { props, rest })
    }

    /// A name a destructuring assignment writes (`({ eval } = o)` is an early error in strict
    /// code; declarations are checked where they are declared).
    fn check_assign_target(&self, ident: &ast::Ident, mode: Mode) -> LowerResult<()> {
        match mode {
            Mode::Assign => self.check_binding(ident),
            Mode::Bind => Ok(()),
        }
    }

    fn ident_pattern(&mut self, ident: &ast::Ident, mode: Mode) -> Pattern {
        match mode {
            Mode::Bind => Pattern::Var(self.chain().resolve(ident.sym.as_str(), Access::Write).var),
            Mode::Assign => match self.ident_target(ident) {
                // A TDZ check is not expressible inside a destructuring pattern; such writes
                // to an uninitialized `let` go unchecked.
                IdentTarget::Writable { var, .. } => Pattern::Var(var),
                IdentTarget::Const { name, .. } => const_target(name, self.span(ident.span)),
            },
        }
    }

    fn ident_target(&mut self, ident: &ast::Ident) -> IdentTarget {
        let name = ident.sym.as_str();
        let resolved = self.chain().resolve(name, Access::Write);
        if resolved.kind == Some(VarKind::Const) {
            let read = ExprKind::Var { var: resolved.var, check_tdz: resolved.check_tdz };
            IdentTarget::Const {
                read: ir::Expr { kind: read, span: self.span(ident.span) },
                name: name.to_owned(),
            }
        } else {
            let tdz_read = resolved.check_tdz.then(|| ir::Expr {
                kind: ExprKind::Var { var: resolved.var.clone(), check_tdz: true },
                span: self.span(ident.span),
            });
            IdentTarget::Writable { var: resolved.var, tdz_read }
        }
    }

    /// An expression used as an assignment target inside a pattern: an identifier or a member.
    fn expr_target(&mut self, expr: &Expr) -> LowerResult<Pattern> {
        match strip_parens_and_types(expr) {
            Expr::Ident(ident) => Ok(self.ident_pattern(ident, Mode::Assign)),
            Expr::Member(member) => self.member_target(member),
            Expr::SuperProp(sup) => Err(self.unsupported("`super` is not supported", sup.span)),
            other => Err(self.parse_error("Invalid assignment target", other.span())),
        }
    }

    fn member_target(&mut self, member: &ast::MemberExpr) -> LowerResult<Pattern> {
        Ok(Pattern::Member {
            object: Box::new(self.lower_expr(&member.obj)?),
            property: Box::new(self.member_property(&member.prop)?),
        })
    }

    /// `target = value`, `target op= value`, `target &&= value`.
    pub(crate) fn assign(&mut self, assign: &ast::AssignExpr) -> LowerResult<ExprKind> {
        let span = self.span(assign.span);
        let op = assign_op(assign.op);
        let target = match &assign.left {
            AssignTarget::Simple(simple) => self.simple_target(simple)?,
            AssignTarget::Pat(pat) => {
                let pattern = match pat {
                    AssignTargetPat::Array(array) => self.array_pattern(array, Mode::Assign)?,
                    AssignTargetPat::Object(object) => self.object_pattern(object, Mode::Assign)?,
                    AssignTargetPat::Invalid(invalid) => {
                        return Err(self.parse_error("Invalid assignment target", invalid.span));
                    }
                };
                let value = self.lower_expr(&assign.right)?;
                return Ok(ExprKind::Assign { op: None, target: Box::new(pattern), value: Box::new(value) });
            }
        };
        let name = match &assign.left {
            AssignTarget::Simple(SimpleAssignTarget::Ident(binding)) if op == AssignKind::Plain => {
                Some(binding.id.sym.to_string())
            }
            _ => None,
        };
        let value = self.lower_named_expr(&assign.right, name.as_deref())?;
        Ok(match target {
            IdentOrPattern::Pattern(pattern, tdz_read) => {
                let target = Box::new(pattern);
                let value = Box::new(value);
                let assign = match op {
                    AssignKind::Plain => ExprKind::Assign { op: None, target, value },
                    AssignKind::Binary(op) => ExprKind::Assign { op: Some(op), target, value },
                    AssignKind::Logical(op) => ExprKind::LogicalAssign { op, target, value },
                };
                // The check runs before the right-hand side, where JavaScript would evaluate the
                // right-hand side of a plain `=` first: only the order of a side effect and the
                // ReferenceError differs, in a program that is broken anyway.
                match tdz_read {
                    Some(read) => ExprKind::Sequence(vec![read, ir::Expr { kind: assign, span }]),
                    None => assign,
                }
            }
            IdentOrPattern::Const { read, name } => {
                let throw = ir::Expr { kind: ExprKind::ThrowConstAssign { name }, span };
                match op {
                    AssignKind::Plain if matches!(read.kind, ExprKind::Var { check_tdz: true, .. }) => {
                        ExprKind::Sequence(vec![value, read, throw])
                    }
                    AssignKind::Plain => ExprKind::Sequence(vec![value, throw]),
                    AssignKind::Binary(_) => ExprKind::Sequence(vec![read, value, throw]),
                    AssignKind::Logical(op) => ExprKind::Logical {
                        op,
                        left: Box::new(read),
                        right: Box::new(ir::Expr { kind: ExprKind::Sequence(vec![value, throw]), span }),
                    },
                }
            }
        })
    }

    fn simple_target(&mut self, target: &SimpleAssignTarget) -> LowerResult<IdentOrPattern> {
        if let SimpleAssignTarget::Ident(binding) = target {
            self.check_assign_target(&binding.id, Mode::Assign)?;
        }
        Ok(match target {
            SimpleAssignTarget::Ident(binding) => match self.ident_target(&binding.id) {
                IdentTarget::Writable { var, tdz_read } => {
                    IdentOrPattern::Pattern(Pattern::Var(var), tdz_read)
                }
                IdentTarget::Const { read, name } => IdentOrPattern::Const { read, name },
            },
            SimpleAssignTarget::Member(member) => IdentOrPattern::Pattern(self.member_target(member)?, None),
            SimpleAssignTarget::Paren(paren) => self.expr_simple_target(&paren.expr)?,
            SimpleAssignTarget::TsAs(ts) => self.expr_simple_target(&ts.expr)?,
            SimpleAssignTarget::TsSatisfies(ts) => self.expr_simple_target(&ts.expr)?,
            SimpleAssignTarget::TsNonNull(ts) => self.expr_simple_target(&ts.expr)?,
            SimpleAssignTarget::TsTypeAssertion(ts) => self.expr_simple_target(&ts.expr)?,
            SimpleAssignTarget::TsInstantiation(ts) => self.expr_simple_target(&ts.expr)?,
            SimpleAssignTarget::SuperProp(sup) => {
                return Err(self.unsupported("`super` is not supported", sup.span));
            }
            SimpleAssignTarget::OptChain(chain) => {
                return Err(self.parse_error("Invalid left-hand side in assignment", chain.span));
            }
            SimpleAssignTarget::Invalid(invalid) => {
                return Err(self.parse_error("Invalid left-hand side in assignment", invalid.span));
            }
        })
    }

    /// A parenthesized or type-asserted simple target: `(x) = 1`, `(o.a as any) = 1`.
    fn expr_simple_target(&mut self, expr: &Expr) -> LowerResult<IdentOrPattern> {
        match strip_parens_and_types(expr) {
            Expr::Ident(ident) => Ok(match self.ident_target(ident) {
                IdentTarget::Writable { var, tdz_read } => {
                    IdentOrPattern::Pattern(Pattern::Var(var), tdz_read)
                }
                IdentTarget::Const { read, name } => IdentOrPattern::Const { read, name },
            }),
            Expr::Member(member) => Ok(IdentOrPattern::Pattern(self.member_target(member)?, None)),
            other => Err(self.parse_error("Invalid left-hand side in assignment", other.span())),
        }
    }

    /// `++x`, `o.a--`, ...
    pub(crate) fn update(&mut self, update: &ast::UpdateExpr) -> LowerResult<ExprKind> {
        let span = self.span(update.span);
        let op = match update.op {
            ast::UpdateOp::PlusPlus => UpdateOp::Increment,
            ast::UpdateOp::MinusMinus => UpdateOp::Decrement,
        };
        if let Expr::Ident(ident) = strip_parens_and_types(&update.arg) {
            self.check_assign_target(ident, Mode::Assign)?;
        }
        let target = match strip_parens_and_types(&update.arg) {
            Expr::Ident(ident) => match self.ident_target(ident) {
                IdentTarget::Writable { var, tdz_read: Some(read) } => {
                    let update =
                        ExprKind::Update { op, prefix: update.prefix, target: Box::new(Pattern::Var(var)) };
                    return Ok(ExprKind::Sequence(vec![read, ir::Expr { kind: update, span }]));
                }
                IdentTarget::Writable { var, tdz_read: None } => Pattern::Var(var),
                IdentTarget::Const { read, name } => {
                    let throw = ir::Expr { kind: ExprKind::ThrowConstAssign { name }, span };
                    return Ok(ExprKind::Sequence(vec![read, throw]));
                }
            },
            Expr::Member(member) => self.member_target(member)?,
            Expr::SuperProp(sup) => return Err(self.unsupported("`super` is not supported", sup.span)),
            other => {
                return Err(
                    self.parse_error("Invalid left-hand side expression in update operation", other.span())
                );
            }
        };
        Ok(ExprKind::Update { op, prefix: update.prefix, target: Box::new(target) })
    }
}

enum IdentOrPattern {
    /// A target, with a TDZ-checked read to run first when it may be an uninitialized `let`.
    Pattern(Pattern, Option<ir::Expr>),
    Const {
        read: ir::Expr,
        name: String,
    },
}

/// The target that stands for a `const` binding inside a destructuring assignment: evaluating
/// it throws.
fn const_target(name: String, span: ir::Span) -> Pattern {
    Pattern::Member {
        object: Box::new(ir::Expr { kind: ExprKind::ThrowConstAssign { name: name.clone() }, span }),
        property: Box::new(Property::Named(name)),
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum AssignKind {
    Plain,
    Binary(BinaryOp),
    Logical(LogicalOp),
}

fn assign_op(op: ast::AssignOp) -> AssignKind {
    use ast::AssignOp as Ast;
    let binary = match op {
        Ast::Assign => return AssignKind::Plain,
        Ast::AddAssign => ast::BinaryOp::Add,
        Ast::SubAssign => ast::BinaryOp::Sub,
        Ast::MulAssign => ast::BinaryOp::Mul,
        Ast::DivAssign => ast::BinaryOp::Div,
        Ast::ModAssign => ast::BinaryOp::Mod,
        Ast::LShiftAssign => ast::BinaryOp::LShift,
        Ast::RShiftAssign => ast::BinaryOp::RShift,
        Ast::ZeroFillRShiftAssign => ast::BinaryOp::ZeroFillRShift,
        Ast::BitOrAssign => ast::BinaryOp::BitOr,
        Ast::BitXorAssign => ast::BinaryOp::BitXor,
        Ast::BitAndAssign => ast::BinaryOp::BitAnd,
        Ast::ExpAssign => ast::BinaryOp::Exp,
        Ast::AndAssign => return AssignKind::Logical(LogicalOp::And),
        Ast::OrAssign => return AssignKind::Logical(LogicalOp::Or),
        Ast::NullishAssign => return AssignKind::Logical(LogicalOp::Nullish),
    };
    match binary_op(binary) {
        Operator::Binary(op) => AssignKind::Binary(op),
        Operator::Logical(op) => AssignKind::Logical(op),
    }
}
