//! TLS for the IMAP connection, in Rust (rustls): the system's trusted roots plus, if
//! the configuration names one, a private CA from a PEM file. Nothing to install.
//! (SMTP gets the same trust through lettre's rustls support, see `smtp.rs`.)

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::Arc;

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName};
use rustls::{ClientConfig, ClientConnection, RootCertStore, StreamOwned};

use crate::config::MailServer;

/// The client side of TLS for `server`: system roots, plus its `ca_file`.
pub fn client_config(server: &MailServer) -> Result<Arc<ClientConfig>, String> {
    let mut roots = RootCertStore::empty();
    // A system without a usable store still works with a private CA.
    let native = rustls_native_certs::load_native_certs();
    roots.add_parsable_certificates(native.certs);
    if let Some(ca) = &server.ca_file {
        let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(ca)
            .map_err(|e| format!("{}: {e}", ca.display()))?
            .collect::<Result<_, _>>()
            .map_err(|e| format!("{}: {e}", ca.display()))?;
        if certs.is_empty() {
            return Err(format!("{}: no certificate in the file", ca.display()));
        }
        for cert in certs {
            roots
                .add(cert)
                .map_err(|e| format!("{}: {e}", ca.display()))?;
        }
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(Arc::new(config))
}

/// A TLS stream over TCP, as the `imap` crate reads and writes it.
pub struct TlsStream(StreamOwned<ClientConnection, TcpStream>);

impl TlsStream {
    /// The TLS handshake on a connected socket, checking the server's name `host`.
    pub fn connect(
        config: Arc<ClientConfig>,
        host: &str,
        tcp: TcpStream,
    ) -> Result<TlsStream, String> {
        let name = ServerName::try_from(host.to_string())
            .map_err(|e| format!("{host:?} is not a server name: {e}"))?;
        let conn = ClientConnection::new(config, name).map_err(|e| e.to_string())?;
        let mut stream = StreamOwned::new(conn, tcp);
        // Complete the handshake now, so a bad certificate is told at connection time.
        while stream.conn.is_handshaking() {
            stream
                .conn
                .complete_io(&mut stream.sock)
                .map_err(|e| format!("TLS handshake with {host}: {e}"))?;
        }
        Ok(TlsStream(stream))
    }
}

impl Read for TlsStream {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.0.read(buf)
    }
}

impl Write for TlsStream {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

impl imap::extensions::idle::SetReadTimeout for TlsStream {
    fn set_read_timeout(&mut self, timeout: Option<std::time::Duration>) -> imap::Result<()> {
        self.0
            .sock
            .set_read_timeout(timeout)
            .map_err(imap::Error::Io)
    }
}
