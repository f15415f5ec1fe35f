//! Finding declarations before lowering the code that may refer to them.
//!
//! JavaScript hoists: a `var` anywhere in a function (outside nested functions) belongs to the
//! whole function, and a block's `let`/`const`/function declarations belong to the whole block.
//! These walks list them without recursion (explicit work lists), so no input can overflow the
//! stack here.

use swc_ecma_ast::{Decl, ForHead, Ident, ObjectPatProp, Pat, Stmt, VarDecl, VarDeclKind, VarDeclOrExpr};

use crate::ir::VarKind;

/// The identifiers a binding pattern declares, in source order.
pub fn binding_idents(pat: &Pat) -> Vec<&Ident> {
    let mut found = Vec::new();
    let mut work = vec![pat];
    while let Some(pat) = work.pop() {
        match pat {
            Pat::Ident(binding) => found.push(&binding.id),
            Pat::Array(array) => work.extend(array.elems.iter().rev().flatten()),
            Pat::Rest(rest) => work.push(&rest.arg),
            Pat::Object(object) => {
                for prop in object.props.iter().rev() {
                    match prop {
                        ObjectPatProp::KeyValue(kv) => work.push(&kv.value),
                        ObjectPatProp::Assign(assign) => found.push(&assign.key.id),
                        ObjectPatProp::Rest(rest) => work.push(&rest.arg),
                    }
                }
            }
            Pat::Assign(assign) => work.push(&assign.left),
            Pat::Expr(_) | Pat::Invalid(_) => {}
        }
    }
    // Shorthand properties are recorded as soon as their object is popped, before the
    // sub-patterns of earlier properties: restore source order.
    found.sort_by_key(|ident| ident.span.lo);
    found
}

/// One declaration found by a collection walk.
#[derive(Debug)]
pub struct Declared<'a> {
    pub ident: &'a Ident,
    pub kind: VarKind,
}

fn var_decl_names<'a>(decl: &'a VarDecl, out: &mut Vec<Declared<'a>>) {
    if decl.declare {
        return;
    }
    let kind = match decl.kind {
        VarDeclKind::Var => VarKind::Var,
        VarDeclKind::Let => VarKind::Let,
        VarDeclKind::Const => VarKind::Const,
    };
    for declarator in &decl.decls {
        out.extend(binding_idents(&declarator.name).into_iter().map(|ident| Declared { ident, kind }));
    }
}

/// Every `var` declared in a function body, outside nested functions, in source order.
pub fn hoisted_vars(body: &[Stmt]) -> Vec<Declared<'_>> {
    let mut found = Vec::new();
    let mut work: Vec<&Stmt> = body.iter().rev().collect();
    while let Some(stmt) = work.pop() {
        match stmt {
            Stmt::Decl(Decl::Var(decl)) if decl.kind == VarDeclKind::Var => var_decl_names(decl, &mut found),
            Stmt::Block(block) => work.extend(block.stmts.iter().rev()),
            Stmt::If(stmt) => {
                work.extend(stmt.alt.as_deref());
                work.push(&stmt.cons);
            }
            Stmt::While(stmt) => work.push(&stmt.body),
            Stmt::DoWhile(stmt) => work.push(&stmt.body),
            Stmt::Labeled(stmt) => work.push(&stmt.body),
            Stmt::With(stmt) => work.push(&stmt.body),
            Stmt::For(stmt) => {
                work.push(&stmt.body);
                if let Some(VarDeclOrExpr::VarDecl(decl)) = &stmt.init
                    && decl.kind == VarDeclKind::Var
                {
                    var_decl_names(decl, &mut found);
                }
            }
            Stmt::ForIn(stmt) => {
                work.push(&stmt.body);
                for_head_vars(&stmt.left, &mut found);
            }
            Stmt::ForOf(stmt) => {
                work.push(&stmt.body);
                for_head_vars(&stmt.left, &mut found);
            }
            Stmt::Try(stmt) => {
                if let Some(finalizer) = &stmt.finalizer {
                    work.extend(finalizer.stmts.iter().rev());
                }
                if let Some(handler) = &stmt.handler {
                    work.extend(handler.body.stmts.iter().rev());
                }
                work.extend(stmt.block.stmts.iter().rev());
            }
            Stmt::Switch(stmt) => {
                for case in stmt.cases.iter().rev() {
                    work.extend(case.cons.iter().rev());
                }
            }
            _ => {}
        }
    }
    found
}

fn for_head_vars<'a>(head: &'a ForHead, out: &mut Vec<Declared<'a>>) {
    if let ForHead::VarDecl(decl) = head
        && decl.kind == VarDeclKind::Var
    {
        var_decl_names(decl, out);
    }
}

/// The `let`/`const`/function declarations directly in a statement list (a block's scope).
pub fn lexical_declarations<'a>(stmts: impl IntoIterator<Item = &'a Stmt>) -> Vec<Declared<'a>> {
    let mut found = Vec::new();
    for stmt in stmts {
        match stmt {
            Stmt::Decl(Decl::Var(decl)) if decl.kind != VarDeclKind::Var => var_decl_names(decl, &mut found),
            // `using` bindings are constants.
            Stmt::Decl(Decl::Using(decl)) => {
                for declarator in &decl.decls {
                    let idents = binding_idents(&declarator.name).into_iter();
                    found.extend(idents.map(|ident| Declared { ident, kind: VarKind::Const }));
                }
            }
            // TypeScript overload signatures (no body) declare nothing.
            Stmt::Decl(Decl::Fn(decl)) if !decl.declare && decl.function.body.is_some() => {
                found.push(Declared { ident: &decl.ident, kind: VarKind::Function })
            }
            Stmt::Decl(Decl::TsEnum(decl)) if !decl.declare => {
                found.push(Declared { ident: &decl.id, kind: VarKind::Let })
            }
            Stmt::Decl(Decl::Class(decl)) if !decl.declare => {
                found.push(Declared { ident: &decl.ident, kind: VarKind::Let })
            }
            _ => {}
        }
    }
    found
}

/// The `let`/`const` bindings of a `for` head.
pub fn head_declarations(decl: &VarDecl) -> Vec<Declared<'_>> {
    let mut found = Vec::new();
    var_decl_names(decl, &mut found);
    found
}
