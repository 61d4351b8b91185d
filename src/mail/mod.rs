//! Mail at the edge: reading incoming mail, building outgoing mail, and the transports
//! (Maildir folders, the embedded default; IMAP in and SMTP out).

pub mod imap;
pub mod incoming;
pub mod maildir;
pub mod outgoing;
pub mod smtp;
pub mod tls;
pub mod transport;
