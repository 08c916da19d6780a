//! Background services (a key server, a database) that cells talk to. They
//! start before the first cell, must pass a readiness probe, and are stopped
//! when the run ends for any reason: `Services` kills them on drop.

use std::io::{Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use crate::base::child;
use crate::suite::{Readiness, Service};

#[derive(Debug, thiserror::Error)]
pub(crate) enum ServiceError {
    #[error("service '{name}': cannot start `{command}`: {source}")]
    Start {
        name: String,
        command: String,
        source: std::io::Error,
    },
    #[error("service '{name}' exited before it was ready ({status}); its output is in {log}")]
    Exited { name: String, status: String, log: String },
    #[error("service '{name}' was not ready after {waited:?} ({probe}); its output is in {log}")]
    NotReady {
        name: String,
        waited: Duration,
        probe: String,
        log: String,
    },
}

/// Running services; dropping this stops them (SIGTERM, then SIGKILL after 2 s).
#[derive(Default)]
pub(crate) struct Services {
    running: Vec<(String, Child)>,
    /// Each running service's log file, in the same order.
    logs: Vec<String>,
    /// Each running service's command as run, in the same order.
    commands: Vec<String>,
}

fn probe_http(url: &str) -> bool {
    let rest = url.trim_start_matches("http://");
    let (host, path) = rest
        .split_once('/')
        .map_or((rest, "/".to_string()), |(h, p)| (h, format!("/{p}")));
    let host_port = if host.contains(':') {
        host.to_string()
    } else {
        format!("{host}:80")
    };
    let Some(addr) = host_port.to_socket_addrs().ok().and_then(|mut a| a.next()) else {
        return false;
    };
    let Ok(mut s) = TcpStream::connect_timeout(&addr, Duration::from_millis(500)) else {
        return false;
    };
    let _ = s.set_read_timeout(Some(Duration::from_secs(2)));
    if write!(s, "GET {path} HTTP/1.0\r\nHost: {host}\r\nConnection: close\r\n\r\n").is_err() {
        return false;
    }
    let mut head = [0u8; 12];
    if s.read_exact(&mut head).is_err() {
        return false;
    }
    // "HTTP/1.x 2xx" or 3xx
    head.starts_with(b"HTTP/") && matches!(head[9], b'2' | b'3')
}

fn probe_tcp(addr: &str) -> bool {
    addr.to_socket_addrs()
        .ok()
        .and_then(|mut a| a.next())
        .is_some_and(|a| TcpStream::connect_timeout(&a, Duration::from_millis(500)).is_ok())
}

/// A free TCP port on the loopback interface for each service, picked by
/// the kernel (bind to port 0) so no fixed port can collide with another
/// program or another run. The socket is closed before the service starts:
/// another program could take the port in between, which the service's
/// readiness probe then reports.
pub(crate) fn free_ports(list: &[Service]) -> std::io::Result<Vec<(String, u16)>> {
    list.iter()
        .map(|svc| {
            let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
            Ok((svc.name.clone(), listener.local_addr()?.port()))
        })
        .collect()
}

/// The placeholder values every service's command and probe see: `{tmp}`,
/// each service's `{<name>.port}`, and `{port}` (added per service).
fn scope(tmp: &Path, ports: &[(String, u16)]) -> crate::base::placeholder::Scope {
    crate::base::placeholder::Scope::new()
        .with("tmp", tmp.display().to_string())
        .with_all(ports.iter().map(|(n, p)| (format!("{n}.port"), p)))
}

impl Services {
    /// Starts every service in order and waits for each to be ready.
    /// `log_dir` receives `<name>.log` with each service's output.
    pub(crate) fn start(
        list: &[Service],
        tmp: &Path,
        log_dir: &Path,
        ports: &[(String, u16)],
    ) -> Result<Services, ServiceError> {
        let mut services = Services::default();
        for svc in list {
            let port = ports.iter().find(|(n, _)| *n == svc.name).map_or(0, |(_, p)| *p);
            let values = scope(tmp, ports).with("port", port.to_string());
            let lookup = |n: &str| values.get(n);
            let argv = svc.command.render_with(lookup).unwrap_or_default();
            let log_path = log_dir.join(format!("{}.log", svc.name));
            let log = log_path.display().to_string();
            let start_err = |source| ServiceError::Start {
                name: svc.name.clone(),
                command: argv.join(" "),
                source,
            };
            let out = std::fs::File::create(&log_path).map_err(start_err)?;
            let err = out.try_clone().map_err(start_err)?;
            let mut cmd = child::command(&argv[0]);
            cmd.args(&argv[1..])
                .process_group(0)
                .stdin(Stdio::null())
                .stdout(out)
                .stderr(err);
            cmd.envs(svc.env.iter().map(|(k, v)| (k, v)));
            if let Some(d) = &svc.cwd {
                cmd.current_dir(d);
            }
            let child = cmd.spawn().map_err(start_err)?;
            services.running.push((svc.name.clone(), child));
            services.logs.push(log.clone());
            services.commands.push(shell_words::join(&argv));
            let started = Instant::now();
            loop {
                let child = &mut services.running.last_mut().expect("just pushed").1;
                if let Ok(Some(status)) = child.try_wait() {
                    return Err(ServiceError::Exited {
                        name: svc.name.clone(),
                        status: status.to_string(),
                        log,
                    });
                }
                let ready = match &svc.ready {
                    Readiness::Started => true,
                    Readiness::Tcp(addr) => probe_tcp(&values.text(addr).unwrap_or_default()),
                    Readiness::Http(url) => probe_http(&values.text(url).unwrap_or_default()),
                    Readiness::Command(c) => c.render_with(lookup).ok().is_some_and(|argv| {
                        child::command(&argv[0])
                            .args(&argv[1..])
                            .stdin(Stdio::null())
                            .stdout(Stdio::null())
                            .stderr(Stdio::null())
                            .status()
                            .is_ok_and(|s| s.success())
                    }),
                };
                if ready {
                    break;
                }
                if started.elapsed() > svc.ready_timeout {
                    let probe = match &svc.ready {
                        Readiness::Tcp(a) => format!("TCP {}", values.text(a).unwrap_or_default()),
                        Readiness::Http(u) => format!("GET {}", values.text(u).unwrap_or_default()),
                        Readiness::Command(c) => format!("command {c:?}"),
                        Readiness::Started => "started".into(),
                    };
                    return Err(ServiceError::NotReady {
                        name: svc.name.clone(),
                        waited: svc.ready_timeout,
                        probe,
                        log,
                    });
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        }
        Ok(services)
    }

    /// The first service that is no longer running, described for the cells
    /// that would have talked to it; `None` while all run.
    pub(crate) fn first_dead(&mut self) -> Option<String> {
        self.running
            .iter_mut()
            .zip(&self.logs)
            .find_map(|((name, child), log)| match child.try_wait() {
                Ok(Some(status)) => Some(format!(
                    "service '{name}' is no longer running ({status}); its output is in {log}"
                )),
                _ => None,
            })
    }

    /// Each running service's name and process group (its first process's id).
    pub(crate) fn process_groups(&self) -> Vec<(String, i32)> {
        self.running.iter().map(|(n, c)| (n.clone(), c.id() as i32)).collect()
    }

    /// Each running service as (name, command as run, log file).
    pub(crate) fn described(&self) -> Vec<(String, String, String)> {
        self.running
            .iter()
            .zip(&self.logs)
            .zip(&self.commands)
            .map(|(((n, _), log), cmd)| (n.clone(), cmd.clone(), log.clone()))
            .collect()
    }
}

impl Drop for Services {
    fn drop(&mut self) {
        for (_, child) in self.running.iter_mut().rev() {
            let pg = child.id() as libc::pid_t;
            // SAFETY: killpg has no memory-safety preconditions.
            unsafe { libc::killpg(pg, libc::SIGTERM) };
            let deadline = Instant::now() + Duration::from_secs(2);
            while Instant::now() < deadline && matches!(child.try_wait(), Ok(None)) {
                std::thread::sleep(Duration::from_millis(20));
            }
            unsafe { libc::killpg(pg, libc::SIGKILL) };
            let _ = child.wait();
        }
    }
}
