//! The judge against real Postfix and Dovecot, started on loopback by
//! `scripts/mail-server` (its own test binary, so it can say at run time whether the
//! servers can run).
//!
//! Where they cannot (not installed, or not root: Postfix's master must start as
//! root), every test is reported as ignored, with the reason on stderr — not as
//! passed. Under `CI=true` (`.ci/run` installs them) they are required, and a missing
//! server fails every test.

#[path = "../world.rs"]
#[allow(dead_code)]
mod world;

mod mailserver;
mod tests;

use libtest_mimic::{Arguments, Failed, Trial};

fn main() {
    let args = Arguments::from_args();
    let available = mailserver::availability();
    let required = std::env::var_os("CI").is_some_and(|v| v != "false" && v != "0");
    if let Err(why) = &available {
        if required {
            eprintln!("real-mail tests required (CI is set) but cannot run: {why}");
        } else {
            eprintln!("real-mail tests not run: {why} (.ci/run installs the servers)");
        }
    }
    let tests: [(&str, fn()); 9] = [
        (
            "real_mail::a_turn_over_imap_and_smtp_with_force_and_a_deadline",
            tests::a_turn_over_imap_and_smtp_with_force_and_a_deadline,
        ),
        (
            "real_mail::replies_wait_out_an_smtp_outage_and_mail_waits_out_an_imap_outage",
            tests::replies_wait_out_an_smtp_outage_and_mail_waits_out_an_imap_outage,
        ),
        (
            "real_mail::hostile_mail_gets_a_clear_reply_or_a_documented_silence",
            tests::hostile_mail_gets_a_clear_reply_or_a_documented_silence,
        ),
        (
            "real_mail::killed_at_any_point_every_mail_counts_once_and_no_phase_twice",
            tests::killed_at_any_point_every_mail_counts_once_and_no_phase_twice,
        ),
        (
            "real_mail::after_uidvalidity_changes_mail_is_recognised_by_message_id",
            tests::after_uidvalidity_changes_mail_is_recognised_by_message_id,
        ),
        (
            "real_mail::imaps_and_smtps_with_tls_from_the_first_byte",
            tests::imaps_and_smtps_with_tls_from_the_first_byte,
        ),
        (
            "real_mail::a_wrong_smtp_password_keeps_the_replies_until_it_is_put_right",
            tests::a_wrong_smtp_password_keeps_the_replies_until_it_is_put_right,
        ),
        (
            "real_mail::a_reply_refused_for_good_is_set_aside_shown_and_sent_again_on_demand",
            tests::a_reply_refused_for_good_is_set_aside_shown_and_sent_again_on_demand,
        ),
        (
            "real_mail::imap_tells_when_each_mail_reached_the_mailbox",
            tests::imap_tells_when_each_mail_reached_the_mailbox,
        ),
    ];
    let trials = tests
        .into_iter()
        .map(|(name, f)| {
            let ignored = available.is_err() && !required;
            let available = available.clone();
            Trial::test(name, move || match available {
                Ok(()) => run(f),
                Err(why) => Err(Failed::from(why)),
            })
            .with_ignored_flag(ignored)
        })
        .collect();
    libtest_mimic::run(&args, trials).exit();
}

/// A test's panic as a failure with its message.
fn run(f: fn()) -> Result<(), Failed> {
    std::panic::catch_unwind(f).map_err(|e| {
        let message = e
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "panicked".into());
        Failed::from(message)
    })
}
