//! `console.table(data, properties?)`: Node's box table, character for character, for arrays and
//! plain objects whose rows are objects or primitives (`(index)`, a column per property, `Values`
//! for primitive rows). Cells are shown as Node's `util.inspect` shows them in a table (strings
//! quoted, nested arrays and objects one level deep, `[Object]`/`[Array]` below that, objects of
//! more than two keys as `[Object]`, arrays past three elements as `... N more items`); widths
//! count East Asian wide characters twice, as Node does. Anything else (a primitive, a Map, a
//! Set, a proxy) is printed as `console.log` prints it.

use super::{NativeDef, Step, arg};
use crate::Vm;
use crate::call::Throw;
use crate::meter::Work;
use crate::object::ObjKind;
use crate::props::Key;
use crate::value::{ObjId, Value};

pub const DEFS: &[NativeDef] = &[NativeDef::new("console", "table", 1, table)];

/// Whether `id` is a table Node draws and this module draws the same: an array or an object
/// with no internal kind of its own.
fn tabular(vm: &Vm, id: ObjId) -> bool {
    matches!(vm.heap.obj(id).kind, ObjKind::Array(_) | ObjKind::Plain | ObjKind::Error(_))
}

fn table(vm: &mut Vm, _this: Value, args: &[Value], _data: &[Value]) -> Result<Step, Throw> {
    let data = arg(args, 0);
    let id = match data {
        Value::Obj(id) if tabular(vm, id) => id,
        _ => {
            let text = vm.display_all(args.get(..1).unwrap_or(&[]))?;
            vm.push_console("", text)?;
            return Ok(Step::Return(Value::Undefined));
        }
    };
    // The names and cells are Rust's until the table is printed: they must fit as they
    // accumulate (64K rows of one 1 MB string were 64 GB).
    let mut held = 0usize;
    let mut hold = |vm: &mut Vm, text: &str| -> Result<(), Throw> {
        held = held.saturating_add(text.len());
        vm.ensure_fits(held)
    };
    let properties = match arg(args, 1) {
        Value::Undefined => None,
        Value::Obj(p) if matches!(vm.heap.obj(p).kind, ObjKind::Array(_)) => {
            let items = vm.array_items(Value::Obj(p));
            vm.charge(Work::Elements(items.len()));
            let mut names = Vec::with_capacity(items.len());
            for v in items {
                let name = vm.to_rust_string(v)?;
                hold(vm, &name)?;
                names.push((name, vm.to_key(v)?));
            }
            Some(names)
        }
        _ => {
            let msg = "The \"properties\" argument must be an instance of Array";
            return Err(vm.make_error(codemode_bytecode::ErrorKind::TypeError, msg));
        }
    };
    let row_keys = vm.own_keys(id)?;
    vm.charge(Work::Elements(row_keys.len()));
    let mut index = Vec::with_capacity(row_keys.len());
    // Columns in first-seen order (ordered like an object's keys at the end).
    let mut columns: Vec<(String, Vec<Option<String>>)> = Vec::new();
    let mut values: Vec<Option<String>> = Vec::new();
    let mut has_primitives = false;
    for (i, key) in row_keys.iter().enumerate() {
        let name = vm.key_display(*key);
        hold(vm, &name)?;
        index.push(name);
        let item = vm.get_value(data, *key)?;
        let primitive = !matches!(item, Value::Obj(_));
        if properties.is_none() && primitive {
            has_primitives = true;
            values.resize(i, None);
            let cell = inspect(vm, item, 0)?;
            hold(vm, &cell)?;
            values.push(Some(cell));
            continue;
        }
        // A row's own keys (all of them: `hasOwnProperty` decides whether a cell is shown).
        let own: Vec<Key> = match item {
            Value::Obj(row) => vm.own_property_keys(row, true)?,
            _ => Vec::new(),
        };
        let row_names: Vec<(String, Key)>;
        let keys: &[(String, Key)] = match &properties {
            Some(names) => names,
            None => {
                let keys = match item {
                    Value::Obj(row) => vm.own_keys(row)?,
                    _ => Vec::new(),
                };
                row_names = keys.into_iter().map(|k| (vm.key_display(k), k)).collect();
                &row_names
            }
        };
        vm.charge(Work::Elements(keys.len().saturating_mul(own.len().max(1))));
        for (name, key) in keys {
            let key = *key;
            let cell = if own.contains(&key) { inspect_cell(vm, item, key)? } else { String::new() };
            hold(vm, &cell)?;
            let column = match columns.iter().position(|(n, _)| n == name) {
                Some(c) => c,
                None => {
                    hold(vm, name)?;
                    columns.push((name.clone(), Vec::new()));
                    columns.len() - 1
                }
            };
            if let Some((_, cells)) = columns.get_mut(column) {
                cells.resize(i, None);
                cells.push(Some(cell));
            }
        }
    }
    order_like_object_keys(&mut columns);
    let mut head = vec!["(index)".to_string()];
    let mut body: Vec<Vec<Option<String>>> = vec![index.into_iter().map(Some).collect()];
    for (name, cells) in columns {
        head.push(name);
        body.push(cells);
    }
    if has_primitives {
        head.push("Values".into());
        body.push(values);
    }
    // Every row is padded to the widest cell of each column: measured before it is drawn.
    vm.ensure_fits(rendered_size(&head, &body))?;
    let text = render(&head, &body);
    vm.push_console("", text)?;
    Ok(Step::Return(Value::Undefined))
}

fn inspect_cell(vm: &mut Vm, row: Value, key: Key) -> Result<String, Throw> {
    let v = vm.get_value(row, key)?;
    inspect(vm, v, 0)
}

/// Columns named by array indices first (ascending), then the others in first-seen order, as
/// `Object.keys` of Node's column map lists them.
fn order_like_object_keys(columns: &mut [(String, Vec<Option<String>>)]) {
    let index_of = |name: &str| -> Option<u32> {
        let n: u32 = name.parse().ok()?;
        (n != u32::MAX && n.to_string() == name).then_some(n)
    };
    columns.sort_by_key(|(name, _)| match index_of(name) {
        Some(n) => (0, n),
        None => (1, 0),
    });
}

/// Node's `util.inspect` of a table cell at nesting `depth` (0: the cell's own value).
fn inspect(vm: &mut Vm, v: Value, depth: usize) -> Result<String, Throw> {
    match v {
        Value::Str(s) => Ok(quote(vm.heap.str(s))),
        Value::Number(n) if n == 0.0 && n.is_sign_negative() => Ok("-0".into()),
        Value::Obj(id) => inspect_object(vm, id, depth),
        _ => vm.display(v),
    }
}

fn inspect_object(vm: &mut Vm, id: ObjId, depth: usize) -> Result<String, Throw> {
    let v = Value::Obj(id);
    if vm.heap.obj(id).is_callable() {
        let name = match vm.get_named(v, "name")? {
            Value::Str(s) if !vm.heap.str(s).is_empty() => format!(": {}", vm.heap.str(s)),
            _ => " (anonymous)".into(),
        };
        return Ok(format!("[Function{name}]"));
    }
    let is_array = matches!(vm.heap.obj(id).kind, ObjKind::Array(_));
    if !is_array && !matches!(vm.heap.obj(id).kind, ObjKind::Plain) {
        return vm.display(v);
    }
    let keys = vm.own_keys(id)?;
    // Node's table inspects an object of more than two keys, and anything nested, at depth -1.
    if depth > 0 || (!is_array && keys.len() > 2) {
        return Ok(if is_array { "[Array]" } else { "[Object]" }.into());
    }
    vm.charge(Work::Elements(keys.len()));
    let mut parts = Vec::new();
    if is_array {
        let items = vm.array_items(v);
        for item in items.iter().take(3) {
            parts.push(inspect(vm, *item, depth + 1)?);
        }
        let more = items.len().saturating_sub(3);
        if more > 0 {
            parts.push(format!("... {more} more item{}", if more == 1 { "" } else { "s" }));
        }
    } else {
        for key in keys {
            let name = vm.key_display(key);
            let value = vm.get_value(v, key)?;
            let shown = inspect(vm, value, depth + 1)?;
            parts.push(format!("{}: {shown}", property_name(&name)));
        }
    }
    let (open, close) = if is_array { ("[", "]") } else { ("{", "}") };
    Ok(if parts.is_empty() {
        format!("{open}{close}")
    } else {
        format!("{open} {} {close}", parts.join(", "))
    })
}

/// A key as `util.inspect` writes it: bare when it is an identifier, else quoted.
fn property_name(name: &str) -> String {
    let mut chars = name.chars();
    let identifier = chars.next().is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '$');
    if identifier { name.to_string() } else { quote(name) }
}

/// A string as `util.inspect` quotes it: single quotes unless the text has some (then double
/// quotes, then backticks), control characters escaped.
fn quote(s: &str) -> String {
    let q = if !s.contains('\'') {
        '\''
    } else if !s.contains('"') {
        '"'
    } else if !s.contains('`') && !s.contains("${") {
        '`'
    } else {
        '\''
    };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(q);
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\\' => out.push_str("\\\\"),
            c if c == q => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || c as u32 == 0x7f => out.push_str(&format!("\\x{:02X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push(q);
    out
}

/// Columns as width on a terminal (East Asian wide characters count two).
fn width(s: &str) -> usize {
    unicode_width::UnicodeWidthStr::width(s)
}

/// Node's `cli_table`: the head row, a divider, then each row, in a box; cells left-aligned,
/// padded to the widest in their column plus one space each side.
/// An upper bound of the bytes [`render`] writes: every row as wide as the widest cells (each
/// character at most 4 bytes, box characters 3).
fn rendered_size(head: &[String], columns: &[Vec<Option<String>>]) -> usize {
    let rows = columns.iter().map(Vec::len).max().unwrap_or(0).saturating_add(4);
    let row_bytes: usize = head
        .iter()
        .zip(columns)
        .map(|(h, cells)| {
            cells.iter().flatten().map(String::len).fold(h.len(), usize::max).saturating_mul(4) + 9
        })
        .fold(4usize, usize::saturating_add);
    rows.saturating_mul(row_bytes)
}

fn render(head: &[String], columns: &[Vec<Option<String>>]) -> String {
    let rows = columns.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = head
        .iter()
        .zip(columns)
        .map(|(h, cells)| cells.iter().flatten().map(|c| width(c)).fold(width(h), usize::max))
        .collect();
    let line = |left: &str, mid: &str, right: &str| {
        let dashes: Vec<String> = widths.iter().map(|w| "─".repeat(w + 2)).collect();
        format!("{left}{}{right}", dashes.join(mid))
    };
    let row = |cells: Vec<&str>| {
        let padded: Vec<String> = cells
            .iter()
            .zip(&widths)
            .map(|(c, w)| format!("{c}{}", " ".repeat(w.saturating_sub(width(c)))))
            .collect();
        format!("│ {} │", padded.join(" │ "))
    };
    let mut out = line("┌", "┬", "┐");
    out.push('\n');
    out.push_str(&row(head.iter().map(String::as_str).collect()));
    out.push('\n');
    out.push_str(&line("├", "┼", "┤"));
    out.push('\n');
    for r in 0..rows {
        let cells = columns.iter().map(|c| c.get(r).and_then(|x| x.as_deref()).unwrap_or("")).collect();
        out.push_str(&row(cells));
        out.push('\n');
    }
    out.push_str(&line("└", "┴", "┘"));
    out
}
