//! Queries anyone of a game may send: BOARD, HISTORY, HELP.

use super::*;
use crate::picture::mail::Rich;

impl Judge<'_> {
    pub(super) fn board_reply(
        &self,
        gc: &GameConfig,
        record: &Record,
        viewer: Viewer,
        mail: &Incoming,
        fx: &mut Effects,
    ) -> Result<(), JudgeError> {
        let label = record.game.label();
        let play = record.game.play();
        let systems = play.systems_owned(viewer);
        let (deadline_utc, deadline_local) = replies::deadline_of(record, gc.time_zone);
        let over = record.over_summary();
        let view = replies::BoardView {
            game: &gc.id,
            turn: label.turn,
            phase: label.phase,
            when: play.phase_title(label.turn, label.phase),
            board: play.board_text(viewer),
            systems,
            owned_label: play.owned_label(),
            // A game over asks nothing more.
            asks: match over {
                Some(_) => Vec::new(),
                None => play.phase_asks(viewer),
            },
            standing: play.standing_under_board(),
            deadline_utc,
            deadline_local,
            over: over.unwrap_or_default(),
        };
        self.answer(fx, mail, format!("[{}] Board", gc.id), "board.txt", &view)?;
        if let Some(picture) = gc.pictures.then(|| play.picture(viewer, None)).flatten() {
            let rich = Rich::render(&self.templates, "board.html", &view, Some(picture))?;
            if let Some(reply) = fx.outbox.last_mut() {
                rich.dress(reply);
            }
        }
        Ok(())
    }

    pub(super) fn history_reply(
        &self,
        gc: &GameConfig,
        record: &Record,
        viewer: Viewer,
        turn: Option<u32>,
        mail: &Incoming,
        fx: &mut Effects,
    ) -> Result<(), JudgeError> {
        // Stored history, and any adjudicated earlier in this group.
        let entries = self.history_entries(&gc.id, fx)?;
        let last = entries
            .last()
            .map(|(_, e)| e.turn)
            .unwrap_or(record.game.label().turn);
        let turn = turn.unwrap_or(last);
        let phases: Vec<replies::HistoryPhase> = entries
            .iter()
            .filter(|(_, e)| e.turn == turn)
            .map(|(_, e)| {
                let seen = record.game.play().results_for(&e.results(), viewer);
                replies::HistoryPhase {
                    phase: e.phase.clone(),
                    when: record.game.play().phase_title(e.turn, &e.phase),
                    results: seen.view["results"].clone(),
                    missing: e.missing.clone(),
                    events: seen.view["events"].clone(),
                }
            })
            .collect();
        let view = replies::History {
            game: &gc.id,
            turn,
            turn_title: record.game.play().turn_title(turn),
            phases,
        };
        let subject = format!("[{}] History of turn {turn}", gc.id);
        self.answer(fx, mail, subject, "history.txt", &view)
    }

    /// HELP about one game: the commands, the game's order syntax and, for a player,
    /// an example orders mail for the current phase.
    pub(super) fn help_reply(
        &self,
        gc: &GameConfig,
        record: &Record,
        power: Option<&str>,
        mail: &Incoming,
        fx: &mut Effects,
    ) -> Result<(), JudgeError> {
        let play = record.game.play();
        let over = record.over_summary();
        // A game over takes no more orders: no example of them.
        let example: Vec<String> = power
            .filter(|_| over.is_none())
            .map(|p| play.example_orders(p))
            .unwrap_or_default()
            .lines()
            .map(str::to_string)
            .collect();
        let note = over
            .map(|o| {
                format!(
                    "Game {} is over: {o}. The judge takes no more orders; BOARD and HISTORY still answer.",
                    gc.id
                )
            })
            .unwrap_or_default();
        let view = replies::Help {
            note,
            games: Vec::new(),
            game: gc.id.clone(),
            order_help: play.order_help().to_string(),
            example,
            example_power: power.unwrap_or("").to_string(),
        };
        self.answer(fx, mail, format!("[{}] Help", gc.id), "help.txt", &view)
    }

    /// HELP without a game (or naming none the judge has), to a registered address:
    /// the address's games and the commands. At most 4 an hour per address.
    pub(super) fn general_help(
        &self,
        mail: &Incoming,
        note: Option<&str>,
        fx: &mut Effects,
    ) -> Result<(), JudgeError> {
        let key = throttle::key("help", &mail.from);
        if !self.allow(fx, &key, Duration::hours(1), 4)? {
            return Ok(());
        }
        let mut games = Vec::new();
        let replaced_into = self.replaced_into(&mail.from)?;
        for gc in &self.config.games {
            let played =
                gc.players.iter().any(|p| p.address == mail.from) || replaced_into.contains(&gc.id);
            let moderated = gc.moderators.iter().any(|m| m.address == mail.from);
            if !played && !moderated {
                continue;
            }
            let record = match self.stored(&gc.id) {
                Ok(Some(record)) => record,
                Ok(None) => continue,
                // Not listed: its moderators are told when a pass meets it.
                Err(JudgeError::Unreadable { .. }) => continue,
                Err(e) => return Err(e),
            };
            // The powers as played now (a REPLACE hands one to a new address).
            let powers: Vec<&str> = record
                .addresses
                .iter()
                .filter(|(_, a)| **a == mail.from)
                .map(|(p, _)| p.as_str())
                .collect();
            let role = if !powers.is_empty() {
                format!("you play {}", powers.join(" and "))
            } else if moderated {
                "you moderate it".to_string()
            } else {
                continue;
            };
            let label = record.game.label();
            games.push(replies::HelpGame {
                id: gc.id.clone(),
                rules: gc.rules.name().to_string(),
                role,
                turn: label.turn,
                phase: label.phase.to_string(),
                when: match record.over_summary() {
                    Some(over) => format!("over: {over}"),
                    None => record.game.play().phase_title(label.turn, label.phase),
                },
            });
        }
        let view = replies::Help {
            note: note.unwrap_or("").to_string(),
            games,
            game: String::new(),
            order_help: String::new(),
            example: Vec::new(),
            example_power: String::new(),
        };
        self.answer(fx, mail, "Help".to_string(), "help.txt", &view)
    }
}
