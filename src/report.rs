//! Rendering mails from view models with minijinja (strict undefined: a template that
//! names a missing value is an error, not an empty string). Templates are read from the
//! configured folder when present there, else the ones built into the program (the
//! same files as `templates/`).

use std::path::{Path, PathBuf};

use minijinja::{Environment, UndefinedBehavior};
use serde::Serialize;

const BUILT_IN: &[(&str, &str)] = &[
    ("receipt.txt", include_str!("../templates/receipt.txt")),
    ("results.txt", include_str!("../templates/results.txt")),
    ("reminder.txt", include_str!("../templates/reminder.txt")),
    ("board.txt", include_str!("../templates/board.txt")),
    ("history.txt", include_str!("../templates/history.txt")),
    ("help.txt", include_str!("../templates/help.txt")),
    ("refusal.txt", include_str!("../templates/refusal.txt")),
    ("notice.txt", include_str!("../templates/notice.txt")),
    ("game_over.txt", include_str!("../templates/game_over.txt")),
];

pub struct Templates {
    env: Environment<'static>,
}

#[derive(Debug, thiserror::Error)]
pub enum TemplateError {
    #[error("template {name}: {source}")]
    Render {
        name: String,
        source: minijinja::Error,
    },
    #[error("template {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
}

impl Templates {
    pub fn load(dir: Option<&Path>) -> Result<Templates, TemplateError> {
        let mut env = Environment::new();
        env.set_undefined_behavior(UndefinedBehavior::Strict);
        env.set_keep_trailing_newline(true);
        for (name, text) in BUILT_IN {
            let custom = dir.map(|d| d.join(name)).filter(|p| p.is_file());
            let source = match custom {
                Some(path) => std::fs::read_to_string(&path)
                    .map_err(|source| TemplateError::Read { path, source })?,
                None => text.to_string(),
            };
            env.add_template_owned(name.to_string(), source)
                .map_err(|source| TemplateError::Render {
                    name: name.to_string(),
                    source,
                })?;
        }
        Ok(Templates { env })
    }

    pub fn render<S: Serialize>(&self, name: &str, view: &S) -> Result<String, TemplateError> {
        self.env
            .get_template(name)
            .and_then(|t| t.render(view))
            .map_err(|source| TemplateError::Render {
                name: name.into(),
                source,
            })
    }
}
