//! The current time in the user's time zone, read safely: `TZ` comes from
//! the environment of whoever starts the run (a hook, an agent), so a value
//! that names a device, a FIFO, a huge file or a path with `..` must not
//! hang or crash the run. Anything unusable falls back to UTC with one
//! warning on stderr.

use jiff::tz::TimeZone;

/// The system's time zone file.
const SYSTEM_ZONE: &str = "/etc/localtime";

/// Largest TZif file read for `TZ=/path` (real ones are a few KiB).
const MAX_TZIF: u64 = 1024 * 1024;

/// The time zone named by `tz` (the value of `TZ`), or why it is unusable.
pub(crate) fn zone_from(tz: &str) -> Result<TimeZone, String> {
    let name = tz.strip_prefix(':').unwrap_or(tz);
    if name.is_empty() {
        return Ok(TimeZone::UTC);
    }
    if name.chars().any(char::is_control) {
        return Err("it holds control characters".into());
    }
    if name.starts_with('/') {
        return read_tzif(name);
    }
    if name.split('/').any(|c| c == ".." || c == ".") {
        return Err("it holds `..` or `.`".into());
    }
    if let Ok(tz) = jiff::tz::db().get(name) {
        return Ok(tz);
    }
    TimeZone::posix(name).map_err(|_| "it names no known time zone".into())
}

fn read_tzif(path: &str) -> Result<TimeZone, String> {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(
            crate::platform::O_NONBLOCK | crate::platform::O_NOCTTY | crate::platform::O_CLOEXEC,
        )
        .open(path)
        .map_err(|e| format!("cannot open it: {e}"))?;
    let meta = file.metadata().map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err("it is not a regular file".into());
    }
    if meta.len() > MAX_TZIF {
        return Err("it is too large for a time zone file".into());
    }
    let mut bytes = Vec::new();
    file.take(MAX_TZIF)
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    TimeZone::tzif(path, &bytes).map_err(|e| format!("not a time zone file: {e}"))
}

/// The time zone of this run: `TZ` when set and usable, else the system's.
pub(crate) fn zone() -> TimeZone {
    match std::env::var("TZ") {
        Ok(tz) => zone_from(&tz).unwrap_or_else(|why| {
            eprintln!(
                "active-status: warning: TZ={} is unusable ({why}); using UTC",
                crate::escape::escape_controls(&tz)
            );
            TimeZone::UTC
        }),
        Err(std::env::VarError::NotUnicode(_)) => {
            eprintln!("active-status: warning: TZ is not valid UTF-8; using UTC");
            TimeZone::UTC
        }
        // TZ is unset here, so the system zone comes from /etc/localtime,
        // read as a TZif file: the same offsets `TimeZone::try_system`
        // gives, without first listing the whole zoneinfo database to
        // name the zone (a few hundred system calls on every run; the name
        // is never shown).
        Err(std::env::VarError::NotPresent) => system(),
    }
}

/// The system's zone (`/etc/localtime`), UTC when it cannot be read.
fn system() -> TimeZone {
    read_tzif(SYSTEM_ZONE).unwrap_or(TimeZone::UTC)
}

/// The current time in [`zone`].
pub(crate) fn now() -> jiff::Zoned {
    jiff::Timestamp::now().to_zoned(zone())
}

/// The first and last years a written date may have.
pub(crate) const YEARS: std::ops::RangeInclusive<i16> = 1970..=2100;

/// Refuses a date outside [`YEARS`] (for dates the tool writes).
pub(crate) fn check_year(date: jiff::civil::Date) -> Result<jiff::civil::Date, String> {
    if YEARS.contains(&date.year()) {
        Ok(date)
    } else {
        Err(format!(
            "{date} is outside the years {}–{}",
            YEARS.start(),
            YEARS.end()
        ))
    }
}

/// Parses a date the user gives for writing: exactly `YYYY-MM-DD`, a real
/// day, within [`YEARS`].
pub(crate) fn parse_date(s: &str) -> Result<jiff::civil::Date, String> {
    let b = s.as_bytes();
    let shape = b.len() == 10
        && b.iter().enumerate().all(|(i, c)| {
            if i == 4 || i == 7 {
                *c == b'-'
            } else {
                c.is_ascii_digit()
            }
        });
    if !shape {
        return Err("expected YYYY-MM-DD".into());
    }
    let date: jiff::civil::Date = s.parse().map_err(|e| format!("{e}"))?;
    check_year(date)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_system_zone_has_the_offsets_jiff_finds() {
        #[allow(clippy::disallowed_methods)]
        let jiff_zone = TimeZone::try_system().unwrap_or(TimeZone::UTC);
        let ours = system();
        for ts in [
            jiff::Timestamp::now(),
            jiff::Timestamp::from_second(1_767_225_600).unwrap(), // 2026-01-01
            jiff::Timestamp::from_second(1_782_864_000).unwrap(), // 2026-07-01
        ] {
            assert_eq!(ours.to_offset(ts), jiff_zone.to_offset(ts));
        }
    }

    #[test]
    fn only_plain_dates_in_range_are_accepted() {
        assert_eq!(parse_date("2026-05-06"), Ok(jiff::civil::date(2026, 5, 6)));
        for bad in [
            "-009999-01-01",
            "2026-05-06T10:00",
            "9999-12-31",
            "2026-02-30",
            "26-05-06",
            " 2026-05-06",
        ] {
            assert!(parse_date(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn devices_fifos_and_escapes_fall_back() {
        for bad in [
            "/dev/zero",
            "/dev/null",
            "/",
            "../../dev/zero",
            "Europe/../../../dev/zero",
            "Nowhere/Atlantis\n",
        ] {
            assert!(zone_from(bad).is_err(), "{bad}");
        }
        assert_eq!(zone_from("").unwrap(), TimeZone::UTC);
        assert!(zone_from("UTC").is_ok());
        assert!(zone_from("EST5EDT,M3.2.0,M11.1.0").is_ok());
    }

    #[test]
    fn written_years_are_bounded() {
        assert!(check_year(jiff::civil::date(2026, 5, 6)).is_ok());
        assert!(check_year(jiff::civil::date(9999, 12, 31)).is_err());
        assert!(check_year(jiff::civil::date(-9999, 1, 1)).is_err());
        assert!(check_year(jiff::civil::date(1969, 12, 31)).is_err());
    }
}
