//! The `ReferenceError` text for a global name that does not exist. A few names models reach for
//! out of habit (the timers) get a message that says what to do instead; the list is looked at
//! only on this error path, so defined globals cost nothing.

/// The globals that codemode leaves out on purpose, with what a program does instead.
const TIMERS: &[&str] =
    &["setTimeout", "setInterval", "setImmediate", "clearTimeout", "clearInterval", "clearImmediate"];

/// The message of the `ReferenceError` for reading the undefined global `name`.
pub(crate) fn not_defined_message(name: &str) -> String {
    if TIMERS.contains(&name) {
        return format!(
            "{name} is not available: codemode programs have no timers. Await the tool calls instead \
             (Promise.all for concurrency); to wait for an external event use a tool."
        );
    }
    format!("{name} is not defined")
}

#[cfg(test)]
mod tests {
    use super::not_defined_message;

    #[test]
    fn timers_say_what_to_do_instead() {
        assert!(not_defined_message("setTimeout").starts_with("setTimeout is not available: codemode"));
        assert!(not_defined_message("clearInterval").contains("Promise.all"));
        assert_eq!(not_defined_message("fooBar"), "fooBar is not defined");
    }
}
