//! The time zone a date is formatted in (`timeZone` of `Intl.DateTimeFormat` and of
//! `toLocale*String`): UTC, or an IANA zone of the tz database bundled through `jiff` (offsets
//! and DST rules; no system file is read, so a run stays confined and deterministic).
//!
//! The run's own zone ([`LocalZone`], `VmConfig::time_zone`) is what `Date`'s local-time methods
//! and `Intl`'s default use; UTC unless the host names another.
//!
//! Zone *names* in a locale ("EST", "Eastern Standard Time") come from CLDR's metazone data,
//! which is not bundled: UTC's names and the offset styles (`GMT-5`, `GMT-05:00`) are given,
//! any other name is a `RangeError` that says what works instead, never a guess.

use jiff::Timestamp;
use jiff::tz::{Offset, TimeZone};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::convert::clip_for_message;

/// A resolved `timeZone` option.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) enum Zone {
    #[default]
    Utc,
    Iana(Box<TimeZone>),
}

/// Names ICU resolves to `UTC` itself (Node: `resolvedOptions().timeZone === "UTC"`, short name
/// `UTC`); compared ASCII-case-insensitively, as zone names are.
const UTC_ALIASES: [&str; 10] =
    ["UTC", "GMT", "Etc/UTC", "Etc/GMT", "UCT", "Etc/UCT", "Zulu", "Etc/Zulu", "Universal", "Etc/Universal"];

/// How `timeZoneName` asks for the zone to be written.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum ZoneStyle {
    Short,
    Long,
    ShortOffset,
    LongOffset,
    ShortGeneric,
    LongGeneric,
}

impl ZoneStyle {
    /// The `timeZoneName` option's value, or `None` when it is not one.
    pub fn parse(value: &str) -> Option<ZoneStyle> {
        Some(match value {
            "short" => ZoneStyle::Short,
            "long" => ZoneStyle::Long,
            "shortOffset" => ZoneStyle::ShortOffset,
            "longOffset" => ZoneStyle::LongOffset,
            "shortGeneric" => ZoneStyle::ShortGeneric,
            "longGeneric" => ZoneStyle::LongGeneric,
            _ => return None,
        })
    }

    fn option_name(self) -> &'static str {
        match self {
            ZoneStyle::Short => "short",
            ZoneStyle::Long => "long",
            ZoneStyle::ShortOffset => "shortOffset",
            ZoneStyle::LongOffset => "longOffset",
            ZoneStyle::ShortGeneric => "shortGeneric",
            ZoneStyle::LongGeneric => "longGeneric",
        }
    }
}

/// 400 Gregorian years in milliseconds: the calendar, and a zone's final DST rule, repeat.
const FOUR_CENTURIES_MS: i64 = 146_097 * 86_400_000;

/// `ms` moved by whole multiples of 400 years into the database's range (a day inside each
/// end), and the shift to add back; below the range the zone's first offset holds anyway.
fn into_range(ms: i64) -> (i64, i64) {
    let max = Timestamp::MAX.as_millisecond() - 86_400_000;
    let min = Timestamp::MIN.as_millisecond() + 86_400_000;
    if ms > max {
        let k = (ms - max) / FOUR_CENTURIES_MS + 1;
        (ms - k * FOUR_CENTURIES_MS, k * FOUR_CENTURIES_MS)
    } else if ms < min {
        (min, 0)
    } else {
        (ms, 0)
    }
}

impl Zone {
    /// The zone a `timeZone` option names; the error is Node's message.
    pub fn resolve(name: &str) -> Result<Zone, String> {
        if UTC_ALIASES.iter().any(|alias| alias.eq_ignore_ascii_case(name)) {
            return Ok(Zone::Utc);
        }
        // Only names of the bundled database: offsets such as "+05:30" are refused, as Node 20
        // refuses them.
        let valid = !name.is_empty() && !name.starts_with(['+', '-']);
        match TimeZone::get(name) {
            Ok(tz) if valid => Ok(Zone::Iana(Box::new(tz))),
            _ => Err(format!("Invalid time zone specified: {}", clip_for_message(name))),
        }
    }

    /// The zone's offset from UTC, in milliseconds, at time value `t` (finite). Times past the
    /// database's range (years beyond ±9999) take the offset of the same moment of a year 400·k
    /// years nearer, where the zone's last rule (DST included) still applies, as ICU does.
    pub fn offset_ms(&self, t: f64) -> f64 {
        let Zone::Iana(tz) = self else { return 0.0 };
        let (ms, _) = into_range(t as i64);
        let at = Timestamp::from_millisecond(ms).unwrap_or(Timestamp::UNIX_EPOCH);
        f64::from(tz.to_offset(at).seconds()) * 1000.0
    }

    /// The time value of local time `local` (milliseconds as if the zone were UTC): a local time
    /// that occurs twice (clocks set back) is the earlier, one skipped by clocks set forward is
    /// read with the offset before the change, as ECMAScript's `UTC(t)` says.
    pub fn utc_of_local(&self, local: f64) -> f64 {
        let Zone::Iana(tz) = self else { return local };
        if !local.is_finite() {
            return local;
        }
        let (ms, shift) = into_range(local as i64);
        let fraction = local - local.trunc();
        let Ok(at) = Timestamp::from_millisecond(ms) else { return f64::NAN };
        let wall = Offset::UTC.to_datetime(at);
        match tz.to_ambiguous_timestamp(wall).compatible() {
            Ok(utc) => (utc.as_millisecond() + shift) as f64 + fraction,
            Err(_) => local - self.offset_ms(local),
        }
    }

    /// The zone written in `style` at an offset of `offset_ms`, as `en-US` writes it; an error
    /// message when that takes names this runtime does not have.
    pub fn name(&self, style: ZoneStyle, offset_ms: f64) -> Result<String, String> {
        match (self, style) {
            (Zone::Utc, ZoneStyle::Short) => Ok("UTC".into()),
            (Zone::Utc, ZoneStyle::Long) => Ok("Coordinated Universal Time".into()),
            (_, ZoneStyle::ShortOffset) => Ok(gmt_offset(offset_ms, false)),
            (_, ZoneStyle::LongOffset) => Ok(gmt_offset(offset_ms, true)),
            (Zone::Utc, ZoneStyle::ShortGeneric) => Ok(gmt_offset(0.0, false)),
            (Zone::Utc, ZoneStyle::LongGeneric) => Ok(gmt_offset(0.0, true)),
            (Zone::Iana(tz), style) => Err(format!(
                "timeZoneName '{}' for the time zone '{}' is not supported: this runtime has the time-zone rules but not the zones' names (use timeZoneName 'shortOffset' or 'longOffset', or timeZone 'UTC')",
                style.option_name(),
                tz.iana_name().unwrap_or("?"),
            )),
        }
    }
}

/// The run's local time zone (`VmConfig::time_zone`): UTC unless the host names an IANA zone.
/// Saved in a run's state as its name, and resolved again when the state is read.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LocalZone(pub(crate) Zone);

impl LocalZone {
    /// The zone an IANA name (case-insensitive) or a UTC alias names; an unknown name is an
    /// error that says so.
    pub fn named(name: &str) -> Result<LocalZone, String> {
        Zone::resolve(name).map(LocalZone)
    }

    /// Its name (`UTC` for UTC and its aliases).
    pub fn name(&self) -> &str {
        match &self.0 {
            Zone::Utc => "UTC",
            Zone::Iana(tz) => tz.iana_name().unwrap_or("UTC"),
        }
    }

    pub(crate) fn is_utc(&self) -> bool {
        self.0 == Zone::Utc
    }
}

impl Serialize for LocalZone {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for LocalZone {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        LocalZone::named(&name).map_err(serde::de::Error::custom)
    }
}

/// `GMT+5:30` (short: hours unpadded, minutes only when not zero) or `GMT+05:30` (long); seconds
/// when the offset has them (local mean time before 1900); `GMT+0` / `GMT+00:00` at zero.
fn gmt_offset(offset_ms: f64, long: bool) -> String {
    let total = (offset_ms / 1000.0) as i64;
    let sign = if total < 0 { '-' } else { '+' };
    let total = total.abs();
    let (h, m, s) = (total / 3600, total / 60 % 60, total % 60);
    let mut out = if long { format!("GMT{sign}{h:02}:{m:02}") } else { format!("GMT{sign}{h}") };
    if !long && (m != 0 || s != 0) {
        out.push_str(&format!(":{m:02}"));
    }
    if s != 0 {
        out.push_str(&format!(":{s:02}"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn zone(name: &str) -> Zone {
        Zone::resolve(name).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn names_resolve_case_insensitively_and_offsets_are_refused() {
        assert_eq!(zone("utc"), Zone::Utc);
        assert_eq!(zone("Etc/GMT"), Zone::Utc);
        assert!(matches!(zone("america/new_york"), Zone::Iana(_)));
        for bad in ["Foo/Bar", "+05:30", "", "Z"] {
            assert_eq!(Zone::resolve(bad), Err(format!("Invalid time zone specified: {bad}")));
        }
    }

    #[test]
    fn offsets_follow_daylight_saving_time_and_the_last_rule_beyond_the_database() {
        let ny = zone("America/New_York");
        // 2024-03-10 06:59 UTC is 01:59 EST; a minute later it is 03:00 EDT.
        assert_eq!(ny.offset_ms(1_710_053_940_000.0), -5.0 * 3_600_000.0);
        assert_eq!(ny.offset_ms(1_710_054_000_000.0), -4.0 * 3_600_000.0);
        // July of the year 30000 (Node: 8:00 PM for midnight UTC, daylight time).
        let july_30000 = 884_557_065_600_000.0;
        assert_eq!(ny.offset_ms(july_30000), -4.0 * 3_600_000.0);
        // Before 1883: local mean time, -4:56:02.
        assert_eq!(ny.offset_ms(-5_349_024_000_000.0), -17_762_000.0);
        assert_eq!(ny.offset_ms(-8.64e15), -17_762_000.0);
    }

    #[test]
    fn local_times_map_back_to_instants_through_gaps_and_overlaps() {
        let ny = zone("America/New_York");
        // 2024-01-15 09:30 in New York is 14:30 UTC.
        assert_eq!(ny.utc_of_local(1_705_311_000_000.0), 1_705_329_000_000.0);
        // 02:30 on 2024-03-10 does not exist: read with the offset before (EST), 07:30 UTC.
        assert_eq!(ny.utc_of_local(1_710_037_800_000.0), 1_710_055_800_000.0);
        // 01:30 on 2024-11-03 happens twice: the earlier (EDT), 05:30 UTC.
        assert_eq!(ny.utc_of_local(1_730_597_400_000.0), 1_730_611_800_000.0);
        // Far outside the database's years, the same rules.
        let july_30000 = 884_557_065_600_000.0;
        assert_eq!(ny.utc_of_local(july_30000), july_30000 + 4.0 * 3_600_000.0);
        assert_eq!(Zone::Utc.utc_of_local(1.5), 1.5);
    }

    #[test]
    fn a_local_zone_is_saved_as_its_name() {
        let berlin = LocalZone::named("europe/berlin").unwrap_or_else(|e| panic!("{e}"));
        let json = serde_json::to_string(&berlin).unwrap_or_default();
        assert_eq!(json, "\"Europe/Berlin\"");
        let back: LocalZone = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(back, berlin);
        assert!(serde_json::from_str::<LocalZone>("\"Mars/Olympus\"").is_err());
        assert_eq!(LocalZone::default().name(), "UTC");
    }

    #[test]
    fn offset_names_are_written_as_en_us_writes_them() {
        assert_eq!(gmt_offset(0.0, false), "GMT+0");
        assert_eq!(gmt_offset(0.0, true), "GMT+00:00");
        assert_eq!(gmt_offset(-9_000_000.0, false), "GMT-2:30");
        assert_eq!(gmt_offset(19_800_000.0, true), "GMT+05:30");
        assert_eq!(gmt_offset(-17_762_000.0, false), "GMT-4:56:02");
        assert_eq!(gmt_offset(-17_762_000.0, true), "GMT-04:56:02");
        let berlin = zone("Europe/Berlin");
        assert!(berlin.name(ZoneStyle::Short, 3_600_000.0).is_err());
        assert_eq!(Zone::Utc.name(ZoneStyle::Long, 0.0).as_deref(), Ok("Coordinated Universal Time"));
    }
}
