"""A throwaway Redis Cluster of FalkorDB servers on 127.0.0.1, for the cluster tests."""

from __future__ import annotations

import contextlib
import random
import signal
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import redis

from falkmem.storage.embedded import binaries


def _port_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def free_ports(n: int) -> list[int]:
    """``n`` consecutive free ports whose cluster-bus ports (port + 10000) are free too."""
    for _ in range(200):
        base = random.randrange(20_000, 55_000 - n)
        ports = list(range(base, base + n))
        if all(_port_free(p) and _port_free(p + 10_000) for p in ports):
            return ports
    raise RuntimeError("no free port range on 127.0.0.1")


@dataclass
class Node:
    """One ``redis-server`` process of the cluster."""

    port: int
    dir: Path
    proc: subprocess.Popen[bytes]

    @property
    def addr(self) -> str:
        return f"127.0.0.1:{self.port}"

    def client(self, timeout: float = 10.0) -> redis.Redis:
        return redis.Redis(
            host="127.0.0.1", port=self.port, decode_responses=True, socket_timeout=timeout, retry=None
        )

    def alive(self) -> bool:
        return self.proc.poll() is None


@dataclass
class LocalCluster:
    """Starts ``primaries`` primaries with ``replicas`` replicas each; :meth:`stop` kills them all."""

    root: Path
    primaries: int = 3
    replicas: int = 1
    node_timeout_ms: int = 2000
    nodes: list[Node] = field(default_factory=list)

    def start(self) -> LocalCluster:
        server, module = binaries()
        cli = server.parent / "redis-cli"
        count = self.primaries * (1 + self.replicas)
        for port in free_ports(count):
            d = self.root / str(port)
            d.mkdir(parents=True)
            args = [
                str(server),
                "--port", str(port),
                "--bind", "127.0.0.1",
                "--dir", str(d),
                "--logfile", str(d / "server.log"),
                "--cluster-enabled", "yes",
                "--cluster-config-file", str(d / "nodes.conf"),
                "--cluster-node-timeout", str(self.node_timeout_ms),
                "--cluster-replica-validity-factor", "0",
                "--appendonly", "yes",
                "--appendfsync", "always",
                "--save", "",
                "--repl-diskless-sync", "yes",
                "--repl-diskless-sync-delay", "0",
                # CLUSTER SLOTS hides a replica until its replication offset moves; the
                # primary's replication PINGs move it.
                "--repl-ping-replica-period", "1",
                "--loadmodule", str(module), "TIMEOUT_MAX", "60000", "TIMEOUT_DEFAULT", "10000",
            ]  # fmt: skip
            proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            self.nodes.append(Node(port, d, proc))
        for n in self.nodes:
            self._wait(lambda n=n: n.client(1).ping(), f"{n.addr} to answer PING", 30)
        create = [str(cli), "--cluster", "create", *(n.addr for n in self.nodes)]
        create += ["--cluster-replicas", str(self.replicas), "--cluster-yes"]
        out = subprocess.run(create, capture_output=True, text=True, timeout=60)
        if out.returncode != 0:
            raise RuntimeError(f"redis-cli --cluster create failed: {out.stdout}\n{out.stderr}")
        self.wait_healthy(60)
        return self

    def wait_healthy(self, timeout_s: float) -> None:
        """Until every live node says ``cluster_state:ok`` and every replica's link is up."""

        def healthy() -> bool:
            for n in self.nodes:
                if not n.alive():
                    continue
                c = n.client(2)
                if c.cluster("info").get("cluster_state") != "ok":
                    return False
                repl = c.info("replication")
                if repl.get("role") == "slave" and repl.get("master_link_status") != "up":
                    return False
            live_replicas = sum(len(r) for r in self.topology().values())
            for n in self.nodes:
                if n.alive():  # every node must list every replica: clients ask any of them
                    slots = n.client(2).execute_command("CLUSTER SLOTS")
                    if sum(len(r) - 3 for r in slots) < live_replicas:
                        return False
            return len(self.primary_ports()) == self.primaries

        self._wait(healthy, "the cluster to be healthy", timeout_s)

    def _live(self) -> Node:
        return next(n for n in self.nodes if n.alive())

    def node(self, port: int) -> Node:
        return next(n for n in self.nodes if n.port == port)

    def topology(self) -> dict[int, list[int]]:
        """Live primary port → its live replica ports, as the cluster reports it."""
        out: dict[int, list[int]] = {}
        nodes = self._live().client(2).execute_command("CLUSTER NODES")
        ids = {v["node_id"]: int(addr.split("@")[0].rsplit(":", 1)[1]) for addr, v in nodes.items()}
        live = {ids[v["node_id"]]: v for v in nodes.values() if "fail" not in v["flags"]}
        live = {port: v for port, v in live.items() if self.node(port).alive()}
        for port, v in live.items():
            if "master" in v["flags"]:
                out.setdefault(port, [])
        for port, v in live.items():
            if "slave" in v["flags"] and ids.get(v["master_id"]) in out:
                out[ids[v["master_id"]]].append(port)
        return out

    def primary_ports(self) -> list[int]:
        return sorted(self.topology())

    def slot_owner(self, key: str) -> int:
        """Port of the primary that owns ``key``'s hash slot."""
        c = self._live().client(2)
        slot = int(c.execute_command("CLUSTER KEYSLOT", key))
        for start, end, primary, *_ in c.execute_command("CLUSTER SLOTS"):
            if int(start) <= slot <= int(end):
                return int(primary[1])
        raise LookupError(f"slot {slot} is not covered")

    def seeds_url(self) -> str:
        return "redis://" + ",".join(n.addr for n in self.nodes[:2])

    def kill(self, port: int) -> None:
        n = self.node(port)
        n.proc.send_signal(signal.SIGKILL)
        n.proc.wait(10)

    def stop(self) -> None:
        for n in self.nodes:
            with contextlib.suppress(ProcessLookupError):
                n.proc.kill()
        for n in self.nodes:
            with contextlib.suppress(subprocess.TimeoutExpired):
                n.proc.wait(10)

    @staticmethod
    def _wait(check: object, what: str, timeout_s: float) -> None:
        deadline = time.monotonic() + timeout_s
        last: BaseException | None = None
        while time.monotonic() < deadline:
            try:
                if check():  # type: ignore[operator]
                    return
            except (redis.RedisError, OSError) as exc:
                last = exc
            time.sleep(0.1)
        raise TimeoutError(f"waited {timeout_s:.0f} s for {what} (last error: {last!r})")


def tenants_on_distinct_shards(cluster: LocalCluster, prefix: str) -> dict[int, str]:
    """One tenant id per primary: ``{primary port: tenant id}`` (``prefix-0``, ``prefix-1``...)."""
    out: dict[int, str] = {}
    primaries = set(cluster.primary_ports())
    i = 0
    while set(out) != primaries:
        tid = f"{prefix}-{i}"
        out.setdefault(cluster.slot_owner(f"falkmem:{tid}"), tid)
        i += 1
    return out


def wait_replicated(cluster: LocalCluster, primary: int, timeout_s: float = 10.0) -> None:
    """Until every replica of ``primary`` has acknowledged all it wrote so far (WAIT, from outside)."""
    client = cluster.node(primary).client()
    target = int(client.info("replication")["master_repl_offset"])

    def caught_up() -> bool:
        info = client.info("replication")
        offsets = [int(v["offset"]) for k, v in info.items() if k.startswith("slave") and isinstance(v, dict)]
        return bool(offsets) and min(offsets) >= target

    cluster._wait(caught_up, f"the replicas of {primary} to catch up", timeout_s)
