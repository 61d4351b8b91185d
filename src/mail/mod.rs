//! Mail at the edge: reading incoming mail, building outgoing mail, and the transports
//! (Maildir folders, the embedded default).

pub mod incoming;
pub mod maildir;
pub mod outgoing;
