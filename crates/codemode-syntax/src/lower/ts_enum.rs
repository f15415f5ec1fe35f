//! TypeScript `enum` (and `const enum`, which behaves the same at run time): an object with a
//! property per member and, for numeric members, the reverse mapping (`Color[0] === "Red"`),
//! as TypeScript compiles it:
//!
//! ```text
//! enum Color { Red, Green = 5, Blue }  →  tmp = {}; tmp[tmp["Red"] = 0] = "Red"; ...; Color = tmp
//! ```
//!
//! Members without an initializer count on from the previous numeric member. Initializers that
//! are constant expressions (literals, arithmetic, earlier members by name or as `Enum.member`)
//! are folded here, as TypeScript does; others run as ordinary expressions.

use std::collections::HashMap;

use swc_ecma_ast::{self as ast, Expr};

use super::scope::Access;
use super::{LowerResult, Lowerer};
use crate::ir::{self, ExprKind, Pattern, Property, VarKind, VarRef};

#[derive(Clone, Debug)]
enum Constant {
    Number(f64),
    String(String),
}

impl Lowerer<'_> {
    /// `enum E { .. }` as `Bind { E, (tmp = {}, tmp[tmp["A"] = 0] = "A", .., tmp) }`.
    pub(crate) fn enum_declaration(&mut self, decl: &ast::TsEnumDecl) -> LowerResult<ir::StmtKind> {
        let span = self.span(decl.span);
        let scope = self.func.scopes.len().saturating_sub(1);
        let tmp = VarRef::Local(self.func.add_var(scope, "%enum", VarKind::Temp, false));
        let at = |kind: ExprKind| ir::Expr { kind, span };
        let read =
            |var: &VarRef| ir::Expr { kind: ExprKind::Var { var: var.clone(), check_tdz: false }, span };
        let member_of = |object: ir::Expr, property: Property| Pattern::Member {
            object: Box::new(object),
            property: Box::new(property),
        };
        let mut seq = vec![at(ExprKind::Assign {
            op: None,
            target: Box::new(Pattern::Var(tmp.clone())),
            value: Box::new(at(ExprKind::Object(Vec::new()))),
        })];
        let enum_name = decl.id.sym.to_string();
        let mut known: HashMap<String, Constant> = HashMap::new();
        let mut next: Option<f64> = Some(0.0);
        for member in &decl.members {
            let name = match &member.id {
                ast::TsEnumMemberId::Ident(ident) => ident.sym.to_string(),
                ast::TsEnumMemberId::Str(s) => s.value.to_atom_lossy().to_string(),
            };
            let folded = match &member.init {
                None => match next {
                    Some(n) => Some(Constant::Number(n)),
                    None => {
                        return Err(self.parse_error("Enum member must have initializer.", member.span));
                    }
                },
                Some(init) => fold(init, &enum_name, &known, 0),
            };
            let value = match &folded {
                Some(Constant::Number(n)) => at(ExprKind::Number(*n)),
                Some(Constant::String(s)) => at(ExprKind::String(s.clone())),
                None => match &member.init {
                    Some(init) => self.lower_expr(init)?,
                    None => at(ExprKind::Undefined),
                },
            };
            next = match &folded {
                Some(Constant::Number(n)) => Some(n + 1.0),
                _ => None,
            };
            // `tmp["A"] = value`, and for anything but a string constant the reverse mapping
            // `tmp[tmp["A"] = value] = "A"` (TypeScript does the same for computed members).
            let forward = at(ExprKind::Assign {
                op: None,
                target: Box::new(member_of(read(&tmp), Property::Named(name.clone()))),
                value: Box::new(value),
            });
            if matches!(folded, Some(Constant::String(_))) {
                seq.push(forward);
            } else {
                seq.push(at(ExprKind::Assign {
                    op: None,
                    target: Box::new(member_of(read(&tmp), Property::Computed(forward))),
                    value: Box::new(at(ExprKind::String(name.clone()))),
                }));
            }
            if let Some(constant) = folded {
                known.insert(name, constant);
            }
        }
        seq.push(read(&tmp));
        let target = self.chain().resolve(&enum_name, Access::Write).var;
        self.mark_initialized(&target);
        Ok(ir::StmtKind::Bind { pattern: Pattern::Var(target), init: at(ExprKind::Sequence(seq)) })
    }
}

/// The value of a constant enum initializer, or `None` when it must run.
fn fold(expr: &Expr, enum_name: &str, known: &HashMap<String, Constant>, depth: usize) -> Option<Constant> {
    if depth > 32 {
        return None;
    }
    let num = |e: &Expr| match fold(e, enum_name, known, depth + 1) {
        Some(Constant::Number(n)) => Some(n),
        _ => None,
    };
    match expr {
        Expr::Lit(ast::Lit::Num(n)) => Some(Constant::Number(n.value)),
        Expr::Lit(ast::Lit::Str(s)) => Some(Constant::String(s.value.to_atom_lossy().to_string())),
        Expr::Tpl(tpl) if tpl.exprs.is_empty() => tpl
            .quasis
            .first()
            .and_then(|q| q.cooked.as_ref())
            .map(|c| Constant::String(c.to_atom_lossy().to_string())),
        Expr::Paren(paren) => fold(&paren.expr, enum_name, known, depth + 1),
        Expr::Ident(ident) => known.get(ident.sym.as_str()).cloned(),
        Expr::Member(member) => match (&*member.obj, &member.prop) {
            (Expr::Ident(obj), ast::MemberProp::Ident(prop)) if obj.sym.as_str() == enum_name => {
                known.get(prop.sym.as_str()).cloned()
            }
            _ => None,
        },
        Expr::Unary(unary) => {
            let v = num(&unary.arg)?;
            Some(Constant::Number(match unary.op {
                ast::UnaryOp::Minus => -v,
                ast::UnaryOp::Plus => v,
                ast::UnaryOp::Tilde => f64::from(!to_int32(v)),
                _ => return None,
            }))
        }
        Expr::Bin(bin) => {
            if bin.op == ast::BinaryOp::Add
                && let (Some(a), Some(b)) = (
                    fold(&bin.left, enum_name, known, depth + 1),
                    fold(&bin.right, enum_name, known, depth + 1),
                )
            {
                return Some(match (a, b) {
                    (Constant::Number(a), Constant::Number(b)) => Constant::Number(a + b),
                    (a, b) => Constant::String(format!("{}{}", text(&a), text(&b))),
                });
            }
            let (a, b) = (num(&bin.left)?, num(&bin.right)?);
            let int = to_int32;
            Some(Constant::Number(match bin.op {
                ast::BinaryOp::Sub => a - b,
                ast::BinaryOp::Mul => a * b,
                ast::BinaryOp::Div => a / b,
                ast::BinaryOp::Mod => a % b,
                ast::BinaryOp::Exp => a.powf(b),
                ast::BinaryOp::BitOr => f64::from(int(a) | int(b)),
                ast::BinaryOp::BitAnd => f64::from(int(a) & int(b)),
                ast::BinaryOp::BitXor => f64::from(int(a) ^ int(b)),
                ast::BinaryOp::LShift => f64::from(int(a).wrapping_shl(int(b) as u32 & 31)),
                ast::BinaryOp::RShift => f64::from(int(a) >> (int(b) as u32 & 31)),
                ast::BinaryOp::ZeroFillRShift => f64::from((int(a) as u32) >> (int(b) as u32 & 31)),
                _ => return None,
            }))
        }
        _ => None,
    }
}

fn text(c: &Constant) -> String {
    match c {
        Constant::Number(n) => crate::lower::js_number_to_string(*n),
        Constant::String(s) => s.clone(),
    }
}

/// ECMAScript ToInt32.
fn to_int32(n: f64) -> i32 {
    if !n.is_finite() {
        return 0;
    }
    let m = n.trunc().rem_euclid(4_294_967_296.0);
    (if m >= 2_147_483_648.0 { m - 4_294_967_296.0 } else { m }) as i32
}
