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
        let position = play.position_json(viewer);
        let systems: Vec<(String, String)> = position["systems"]
            .as_object()
            .map(|m| {
                m.iter()
                    .map(|(k, v)| (k.clone(), v.as_str().unwrap_or("").to_string()))
                    .collect()
            })
            .unwrap_or_default();
        let view = replies::BoardView {
            game: &gc.id,
            turn: label.turn,
            phase: label.phase,
            board: play.board_text(viewer),
            systems,
            deadline_utc: record.deadline.map(replies::utc).unwrap_or_default(),
            deadline_local: record
                .deadline
                .map(|d| replies::local(d, gc.time_zone))
                .unwrap_or_default(),
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
        let prefix = format!("v1/history/{}/", gc.id);
        let mut entries: Vec<(String, HistoryEntry)> = self.store.scan(&prefix)?;
        entries.extend(
            fx.history
                .iter()
                .filter(|(k, _)| k.starts_with(&prefix))
                .cloned(),
        );
        entries.sort_by(|a, b| a.0.cmp(&b.0));
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
                    results: seen.view["results"].clone(),
                    events: seen.view["events"].clone(),
                }
            })
            .collect();
        let view = replies::History {
            game: &gc.id,
            turn,
            phases,
        };
        let subject = format!("[{}] History of turn {turn}", gc.id);
        self.answer(fx, mail, subject, "history.txt", &view)
    }

    pub(super) fn help_reply(
        &self,
        gc: &GameConfig,
        record: &Record,
        mail: &Incoming,
        fx: &mut Effects,
    ) -> Result<(), JudgeError> {
        #[derive(Serialize)]
        struct Help<'a> {
            order_help: &'a str,
        }
        let view = Help {
            order_help: record.game.order_help(),
        };
        self.answer(fx, mail, format!("[{}] Help", gc.id), "help.txt", &view)
    }
}
