//! Validating a suite's `[services]`: commands, ports and readiness checks.

use super::model::SuiteFile;
use super::validate::*;
use super::{Readiness, Service, SuiteError};
use std::path::Path;
use std::time::Duration;

impl Validator<'_> {
    /// Services: their commands and probes may use `{tmp}`, `{port}` (the
    /// free port versus picked for this service) and any service's
    /// `{<service>.port}`.
    pub(super) fn services(
        &self,
        file: &SuiteFile,
        names: &Names,
        dir: &Path,
        shell: bool,
    ) -> Result<Vec<Service>, SuiteError> {
        let mut services = Vec::new();
        for (sname, s) in &file.services {
            let what = format!("services.{sname}");
            if sname.is_empty() || sname.contains(['.', '/', '{', '}']) {
                return Err(self.err(format!(
                    "{what}: a service name may not be empty or contain '.', '/' or braces"
                )));
            }
            let none = |n: &str| n == "tmp" || n == "port" || names.is_service_port(n);
            let command = self.command(&format!("{what}.command"), &s.command, None, shell, &none)?;
            let probes = [s.ready_tcp.is_some(), s.ready_http.is_some(), s.ready_command.is_some()];
            if probes.iter().filter(|p| **p).count() > 1 {
                return Err(self.err(format!(
                    "{what}: give at most one of ready_tcp, ready_http, ready_command"
                )));
            }
            let ready = if let Some(a) = &s.ready_tcp {
                Readiness::Tcp(self.template(&format!("{what}.ready_tcp"), a, &none)?)
            } else if let Some(u) = &s.ready_http {
                if !u.starts_with("http://") {
                    return Err(self.err(format!("{what}.ready_http: only http:// URLs are probed")));
                }
                Readiness::Http(self.template(&format!("{what}.ready_http"), u, &none)?)
            } else if let Some(c) = &s.ready_command {
                Readiness::Command(self.command(&format!("{what}.ready_command"), c, None, shell, &none)?)
            } else {
                Readiness::Started
            };
            let version = match &s.version {
                Some(v) => Some(self.command(&format!("{what}.version"), v, None, shell, &none)?),
                None => None,
            };
            services.push(Service {
                name: sname.clone(),
                command,
                version,
                ready,
                ready_timeout: self
                    .duration(&format!("{what}.ready_timeout"), &s.ready_timeout)?
                    .unwrap_or(Duration::from_secs(30)),
                cwd: Some(dir.join(s.cwd.as_deref().unwrap_or("."))),
                env: s.env.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
            });
        }
        Ok(services)
    }
}
