//! [`Program::dump`]: a stable, readable text form of the IR for snapshot tests.
//!
//! One block per function (header, vars, captures, params, body), one line per statement with
//! its `line:column`, nested statements indented by two spaces, expressions inline with
//! parentheses around every operator so precedence is never ambiguous. Bindings print with
//! their resolution: `local#3 x`, `capture#0 x`, `global tools`; a TDZ-checked read has a `!`
//! suffix (`local#3 x!`).

use std::fmt::Write as _;

use crate::ir::{
    ArrayElem, BinaryOp, Block, Capture, CatchClause, Expr, ExprKind, Function, LogicalOp, ObjectProp,
    Pattern, Program, PropKey, Property, Stmt, StmtKind, UnaryOp, UpdateOp, VarKind, VarRef,
};
use crate::lower::js_number_to_string;

impl Program {
    /// Renders the whole program. Deterministic: the same IR always gives the same text.
    pub fn dump(&self) -> String {
        let mut dumper =
            Dumper { program: self, parents: vec![None; self.functions.len()], out: String::new() };
        for index in 0..self.functions.len() {
            dumper.function(index);
        }
        dumper.out
    }
}

struct Dumper<'a> {
    program: &'a Program,
    /// The function each function is defined in, filled in while dumping the parent (which
    /// always has a lower id, so it is dumped first).
    parents: Vec<Option<usize>>,
    out: String,
}

impl Dumper<'_> {
    fn function(&mut self, index: usize) {
        let Some(function) = self.program.functions.get(index) else { return };
        let name =
            function.name.as_deref().map_or_else(|| "<anonymous>".to_owned(), |name| format!("{name:?}"));
        let name = if index == 0 { "<main>".to_owned() } else { name };
        let mut flags = String::new();
        for (set, flag) in
            [(function.is_async, " async"), (function.is_arrow, " arrow"), (function.uses_this, " uses-this")]
        {
            if set {
                flags.push_str(flag);
            }
        }
        let _ =
            writeln!(self.out, "fn#{index} {name}{flags} @{}:{}", function.span.line, function.span.column);
        if let Some(parent) = self.parents.get(index).copied().flatten() {
            let _ = writeln!(self.out, "  parent: fn#{parent}");
        }
        if !function.vars.is_empty() {
            self.out.push_str("  vars:\n");
            for (id, var) in function.vars.iter().enumerate() {
                let captured = if var.captured { " captured" } else { "" };
                let _ = writeln!(self.out, "    #{id} {} {}{captured}", var.name, var_kind(var.kind));
            }
        }
        if !function.captures.is_empty() {
            self.out.push_str("  captures:\n");
            for (id, capture) in function.captures.iter().enumerate() {
                let source = match capture {
                    Capture::ParentLocal(var) => format!("parent local#{}", var.0),
                    Capture::ParentCapture(capture) => format!("parent capture#{capture}"),
                };
                let name = self.capture_name(index, id);
                let _ = writeln!(self.out, "    #{id} {name} <- {source}");
            }
        }
        if let Some(var) = function.arguments_var {
            let _ = writeln!(self.out, "  arguments: local#{}", var.0);
        }
        if !function.params.is_empty() {
            let params: Vec<String> =
                function.params.iter().map(|param| self.pattern(index, param)).collect();
            let _ = writeln!(self.out, "  params: {}", params.join(", "));
        }
        if let Some(rest) = &function.rest {
            let rest = self.pattern(index, rest);
            let _ = writeln!(self.out, "  rest: {rest}");
        }
        let scope = self.scope(function, &function.body.scope);
        let _ = writeln!(self.out, "  body:{scope}");
        self.block_body(index, &function.body, 2);
        self.out.push('\n');
    }

    /// The name of capture `capture` of function `function`, following the chain up to the
    /// binding (iteratively).
    fn capture_name(&self, function: usize, capture: usize) -> String {
        let (mut function, mut capture) = (function, capture);
        loop {
            let Some(parent) = self.parents.get(function).copied().flatten() else { return "?".into() };
            let Some(source) = self.program.functions.get(function).and_then(|f| f.captures.get(capture))
            else {
                return "?".into();
            };
            match source {
                Capture::ParentLocal(var) => return self.var_name(parent, var.0 as usize),
                Capture::ParentCapture(next) => {
                    function = parent;
                    capture = *next as usize;
                }
            }
        }
    }

    fn var_name(&self, function: usize, var: usize) -> String {
        self.program
            .functions
            .get(function)
            .and_then(|f| f.vars.get(var))
            .map_or_else(|| "?".to_owned(), |info| info.name.clone())
    }

    fn scope(&self, function: &Function, scope: &[crate::ir::VarId]) -> String {
        if scope.is_empty() {
            return String::new();
        }
        let names: Vec<String> = scope
            .iter()
            .map(|var| {
                let name = function.vars.get(var.0 as usize).map_or("?", |info| info.name.as_str());
                format!("#{} {name}", var.0)
            })
            .collect();
        format!(" scope [{}]", names.join(", "))
    }

    fn block_body(&mut self, function: usize, block: &Block, indent: usize) {
        for stmt in &block.body {
            self.stmt(function, stmt, indent);
        }
    }

    fn line(&mut self, indent: usize, stmt: &Stmt, text: &str) {
        let _ = writeln!(self.out, "{:indent$}{}:{} {text}", "", stmt.span.line, stmt.span.column);
    }

    fn label(label: &Option<String>) -> String {
        label.as_ref().map_or_else(String::new, |label| format!(" label {label}"))
    }

    fn stmt(&mut self, function: usize, stmt: &Stmt, indent: usize) {
        let Some(func) = self.program.functions.get(function) else { return };
        let inner = indent + 2;
        match &stmt.kind {
            StmtKind::Expr(expr) => {
                let text = format!("expr {}", self.expr(function, expr));
                self.line(indent, stmt, &text);
            }
            StmtKind::Bind { pattern, init } => {
                let text =
                    format!("bind {} = {}", self.pattern(function, pattern), self.expr(function, init));
                self.line(indent, stmt, &text);
            }
            StmtKind::Block(block) => {
                let text = format!("block{}", self.scope(func, &block.scope));
                self.line(indent, stmt, &text);
                self.block_body(function, block, inner);
            }
            StmtKind::If { test, then, otherwise } => {
                let text = format!("if {}", self.expr(function, test));
                self.line(indent, stmt, &text);
                self.stmt(function, then, inner);
                if let Some(otherwise) = otherwise {
                    let _ = writeln!(self.out, "{:indent$}else", "");
                    self.stmt(function, otherwise, inner);
                }
            }
            StmtKind::While { test, body, do_while, label } => {
                let keyword = if *do_while { "do-while" } else { "while" };
                let text = format!("{keyword}{} {}", Self::label(label), self.expr(function, test));
                self.line(indent, stmt, &text);
                self.stmt(function, body, inner);
            }
            StmtKind::For { init, test, update, body, scope, per_iteration, label } => {
                let mut text = format!("for{}{}", Self::label(label), self.scope(func, scope));
                if !per_iteration.is_empty() {
                    let vars: Vec<String> = per_iteration.iter().map(|var| format!("#{}", var.0)).collect();
                    let _ = write!(text, " per-iteration [{}]", vars.join(", "));
                }
                self.line(indent, stmt, &text);
                if let Some(init) = init {
                    let _ = writeln!(self.out, "{:inner$}init:", "");
                    self.stmt(function, init, inner + 2);
                }
                if let Some(test) = test {
                    let text = self.expr(function, test);
                    let _ = writeln!(self.out, "{:inner$}test: {text}", "");
                }
                if let Some(update) = update {
                    let text = self.expr(function, update);
                    let _ = writeln!(self.out, "{:inner$}update: {text}", "");
                }
                self.stmt(function, body, inner);
            }
            StmtKind::ForOf { pattern, declare, iterable, body, scope, label }
            | StmtKind::ForIn { pattern, declare, object: iterable, body, scope, label } => {
                let keyword = if matches!(stmt.kind, StmtKind::ForOf { .. }) { "for-of" } else { "for-in" };
                let how = if *declare { "declare" } else { "assign" };
                let text = format!(
                    "{keyword}{}{} {how} {} <- {}",
                    Self::label(label),
                    self.scope(func, scope),
                    self.pattern(function, pattern),
                    self.expr(function, iterable)
                );
                self.line(indent, stmt, &text);
                self.stmt(function, body, inner);
            }
            StmtKind::Switch { discriminant, cases, scope, label } => {
                let text = format!(
                    "switch{}{} {}",
                    Self::label(label),
                    self.scope(func, scope),
                    self.expr(function, discriminant)
                );
                self.line(indent, stmt, &text);
                for case in cases {
                    let test = case.test.as_ref().map_or_else(
                        || "default".to_owned(),
                        |test| format!("case {}", self.expr(function, test)),
                    );
                    let _ = writeln!(self.out, "{:inner$}{test}:", "");
                    for stmt in &case.body {
                        self.stmt(function, stmt, inner + 2);
                    }
                }
            }
            StmtKind::Labeled { label, body } => {
                self.line(indent, stmt, &format!("labeled {label}"));
                self.stmt(function, body, inner);
            }
            StmtKind::Break(label) => self.line(indent, stmt, &format!("break{}", opt_label(label))),
            StmtKind::Continue(label) => self.line(indent, stmt, &format!("continue{}", opt_label(label))),
            StmtKind::Return(value) => {
                let text = match value {
                    Some(value) => format!("return {}", self.expr(function, value)),
                    None => "return".to_owned(),
                };
                self.line(indent, stmt, &text);
            }
            StmtKind::Throw(value) => {
                let text = format!("throw {}", self.expr(function, value));
                self.line(indent, stmt, &text);
            }
            StmtKind::Try { block, catch, finally } => {
                let text = format!("try{}", self.scope(func, &block.scope));
                self.line(indent, stmt, &text);
                self.block_body(function, block, inner);
                if let Some(CatchClause { param, body }) = catch {
                    let param = param
                        .as_ref()
                        .map_or_else(String::new, |param| format!(" {}", self.pattern(function, param)));
                    let scope = self.scope(func, &body.scope);
                    let _ = writeln!(self.out, "{:indent$}catch{param}{scope}", "");
                    self.block_body(function, body, inner);
                }
                if let Some(finally) = finally {
                    let scope = self.scope(func, &finally.scope);
                    let _ = writeln!(self.out, "{:indent$}finally{scope}", "");
                    self.block_body(function, finally, inner);
                }
            }
            StmtKind::Empty => self.line(indent, stmt, "empty"),
        }
    }

    fn var(&self, function: usize, var: &VarRef) -> String {
        match var {
            VarRef::Local(id) => format!("local#{} {}", id.0, self.var_name(function, id.0 as usize)),
            VarRef::Capture(index) => {
                format!("capture#{index} {}", self.capture_name(function, *index as usize))
            }
            VarRef::Global(name) => format!("global {name}"),
        }
    }

    fn pattern(&mut self, function: usize, pattern: &Pattern) -> String {
        match pattern {
            Pattern::Var(var) => self.var(function, var),
            Pattern::Member { object, property } => {
                let object = self.expr(function, object);
                format!("{object}{}", self.property(function, property, false))
            }
            Pattern::Object { props, rest } => {
                let mut parts: Vec<String> = props
                    .iter()
                    .map(|prop| {
                        format!("{}: {}", self.key(function, &prop.key), self.pattern(function, &prop.value))
                    })
                    .collect();
                if let Some(rest) = rest {
                    parts.push(format!("...{}", self.pattern(function, rest)));
                }
                format!("{{{}}}", parts.join(", "))
            }
            Pattern::Array { elems, rest } => {
                let mut parts: Vec<String> = elems
                    .iter()
                    .map(|elem| {
                        elem.as_ref().map_or_else(|| "<hole>".to_owned(), |elem| self.pattern(function, elem))
                    })
                    .collect();
                if let Some(rest) = rest {
                    parts.push(format!("...{}", self.pattern(function, rest)));
                }
                format!("[{}]", parts.join(", "))
            }
            Pattern::Default { target, default } => {
                format!("({} default {})", self.pattern(function, target), self.expr(function, default))
            }
        }
    }

    fn key(&mut self, function: usize, key: &PropKey) -> String {
        match key {
            PropKey::Named(name) => format!("{name:?}"),
            PropKey::Computed(expr) => format!("[{}]", self.expr(function, expr)),
        }
    }

    fn property(&mut self, function: usize, property: &Property, optional: bool) -> String {
        let dot = if optional { "?." } else { "" };
        match property {
            Property::Named(name) if optional => format!("?.{name}"),
            Property::Named(name) => format!(".{name}"),
            Property::Computed(expr) => format!("{dot}[{}]", self.expr(function, expr)),
        }
    }

    fn args(&mut self, function: usize, args: &[ArrayElem]) -> String {
        let parts: Vec<String> = args
            .iter()
            .map(|arg| match arg {
                ArrayElem::Item(expr) => self.expr(function, expr),
                ArrayElem::Spread(expr) => format!("...{}", self.expr(function, expr)),
                ArrayElem::Hole => "<hole>".to_owned(),
            })
            .collect();
        parts.join(", ")
    }

    fn expr(&mut self, function: usize, expr: &Expr) -> String {
        match &expr.kind {
            ExprKind::Undefined => "undefined".into(),
            ExprKind::Null => "null".into(),
            ExprKind::Bool(value) => value.to_string(),
            ExprKind::Number(value) => js_number_to_string(*value),
            ExprKind::String(value) => format!("{value:?}"),
            ExprKind::Regex { pattern, flags } => format!("/{pattern}/{flags}"),
            ExprKind::Template { quasis, exprs } => {
                let mut parts = Vec::new();
                for (index, quasi) in quasis.iter().enumerate() {
                    parts.push(format!("{quasi:?}"));
                    if let Some(expr) = exprs.get(index) {
                        parts.push(format!("${{{}}}", self.expr(function, expr)));
                    }
                }
                format!("template({})", parts.join(" "))
            }
            ExprKind::Var { var, check_tdz } => {
                let tdz = if *check_tdz { "!" } else { "" };
                format!("{}{tdz}", self.var(function, var))
            }
            ExprKind::This => "this".into(),
            ExprKind::Array(elems) => format!("[{}]", self.args(function, elems)),
            ExprKind::Object(props) => {
                let parts: Vec<String> = props
                    .iter()
                    .map(|prop| match prop {
                        ObjectProp::KeyValue { key, value } => {
                            format!("{}: {}", self.key(function, key), self.expr(function, value))
                        }
                        ObjectProp::Spread(expr) => format!("...{}", self.expr(function, expr)),
                        ObjectProp::Getter { key, function: id } => {
                            self.note_child(function, id.0 as usize);
                            format!("get {}: fn#{}", self.key(function, key), id.0)
                        }
                        ObjectProp::Setter { key, function: id } => {
                            self.note_child(function, id.0 as usize);
                            format!("set {}: fn#{}", self.key(function, key), id.0)
                        }
                    })
                    .collect();
                format!("{{{}}}", parts.join(", "))
            }
            ExprKind::Function(id) => {
                self.note_child(function, id.0 as usize);
                format!("fn#{}", id.0)
            }
            ExprKind::Unary { op, arg } => format!("({} {})", unary_op(*op), self.expr(function, arg)),
            ExprKind::TypeofGlobal(name) => format!("(typeof global {name})"),
            ExprKind::Update { op, prefix, target } => {
                let op = match op {
                    UpdateOp::Increment => "++",
                    UpdateOp::Decrement => "--",
                };
                let target = self.pattern(function, target);
                if *prefix { format!("({op}{target})") } else { format!("({target}{op})") }
            }
            ExprKind::Binary { op, left, right } => {
                format!("({} {} {})", self.expr(function, left), binary_op(*op), self.expr(function, right))
            }
            ExprKind::Logical { op, left, right } => {
                format!("({} {} {})", self.expr(function, left), logical_op(*op), self.expr(function, right))
            }
            ExprKind::Conditional { test, then, otherwise } => format!(
                "({} ? {} : {})",
                self.expr(function, test),
                self.expr(function, then),
                self.expr(function, otherwise)
            ),
            ExprKind::Assign { op, target, value } => {
                let op = op.map_or_else(|| "=".to_owned(), |op| format!("{}=", binary_op(op)));
                format!("({} {op} {})", self.pattern(function, target), self.expr(function, value))
            }
            ExprKind::LogicalAssign { op, target, value } => {
                format!(
                    "({} {}= {})",
                    self.pattern(function, target),
                    logical_op(*op),
                    self.expr(function, value)
                )
            }
            ExprKind::Member { object, property, optional } => {
                let object = self.expr(function, object);
                format!("{object}{}", self.property(function, property, *optional))
            }
            ExprKind::Call { callee, args, optional } => {
                let callee = self.expr(function, callee);
                let optional = if *optional { "?." } else { "" };
                format!("{callee}{optional}({})", self.args(function, args))
            }
            ExprKind::New { callee, args } => {
                format!("new {}({})", self.expr(function, callee), self.args(function, args))
            }
            ExprKind::OptionalChain(inner) => format!("chain({})", self.expr(function, inner)),
            ExprKind::Sequence(exprs) => {
                let parts: Vec<String> = exprs.iter().map(|expr| self.expr(function, expr)).collect();
                format!("({})", parts.join(", "))
            }
            ExprKind::Await(arg) => format!("(await {})", self.expr(function, arg)),
            ExprKind::Delete { object, property } => {
                let object = self.expr(function, object);
                format!("(delete {object}{})", self.property(function, property, false))
            }
            ExprKind::ThrowConstAssign { name } => format!("throw-const-assign({name})"),
            ExprKind::CurrentFunction => "current-function".into(),
        }
    }

    fn note_child(&mut self, parent: usize, child: usize) {
        if let Some(slot) = self.parents.get_mut(child)
            && slot.is_none()
            && child != parent
        {
            *slot = Some(parent);
        }
    }
}

fn opt_label(label: &Option<String>) -> String {
    label.as_ref().map_or_else(String::new, |label| format!(" {label}"))
}

fn var_kind(kind: VarKind) -> &'static str {
    match kind {
        VarKind::Var => "var",
        VarKind::Let => "let",
        VarKind::Const => "const",
        VarKind::Param => "param",
        VarKind::Function => "function",
        VarKind::CatchParam => "catch-param",
        VarKind::Temp => "temp",
    }
}

fn unary_op(op: UnaryOp) -> &'static str {
    match op {
        UnaryOp::Minus => "-",
        UnaryOp::Plus => "+",
        UnaryOp::Not => "!",
        UnaryOp::BitNot => "~",
        UnaryOp::Typeof => "typeof",
        UnaryOp::Void => "void",
    }
}

fn logical_op(op: LogicalOp) -> &'static str {
    match op {
        LogicalOp::And => "&&",
        LogicalOp::Or => "||",
        LogicalOp::Nullish => "??",
    }
}

fn binary_op(op: BinaryOp) -> &'static str {
    match op {
        BinaryOp::Add => "+",
        BinaryOp::Sub => "-",
        BinaryOp::Mul => "*",
        BinaryOp::Div => "/",
        BinaryOp::Rem => "%",
        BinaryOp::Exp => "**",
        BinaryOp::Eq => "==",
        BinaryOp::NotEq => "!=",
        BinaryOp::StrictEq => "===",
        BinaryOp::StrictNotEq => "!==",
        BinaryOp::Lt => "<",
        BinaryOp::LtEq => "<=",
        BinaryOp::Gt => ">",
        BinaryOp::GtEq => ">=",
        BinaryOp::BitAnd => "&",
        BinaryOp::BitOr => "|",
        BinaryOp::BitXor => "^",
        BinaryOp::Shl => "<<",
        BinaryOp::Shr => ">>",
        BinaryOp::UShr => ">>>",
        BinaryOp::In => "in",
        BinaryOp::InstanceOf => "instanceof",
    }
}
