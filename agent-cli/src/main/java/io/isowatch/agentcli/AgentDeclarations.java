package io.isowatch.agentcli;

import io.isowatch.agent.recorder.HistoryMember;
import io.isowatch.config.OptionDeclaration;
import io.isowatch.config.ValueType;
import io.isowatch.config.ValueTypes;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * {@code agent run}'s own flags, declared once (decision 0018): what it runs against (targets, JDBC
 * isolation and credentials) and where the history goes (file, spool, Kafka), none with a default
 * value: each absent flag has a meaning, which {@code noDefault} states. The run flags it shares
 * with {@code demo} and {@code gen} are {@link RunDeclarations}'.
 */
public final class AgentDeclarations {

    private static final String AGENT_RUN = "agent run";
    private static final ValueType<String> JDBC_ISOLATION = ValueTypes.oneOf("serializable", "repeatable-read",
            "read-committed", "read-uncommitted", "snapshot");

    public static final OptionDeclaration<String> TARGET = OptionDeclaration
            .key("target", ValueTypes.text("embedded:LEVEL or a JDBC URL")).noDefault("(required)")
            .doc("`embedded:<isolation>` (strict-serializable, serializable, snapshot-isolation, read-committed, "
                    + "read-uncommitted), or a JDBC URL: `jdbc:postgresql://…`, `jdbc:mariadb://…`, `jdbc:mysql://…`, "
                    + "`jdbc:h2:…` (`mem:`, `file:` or `tcp:`), `jdbc:hsqldb:…` (`mem:`, `file:` or `hsql:`; "
                    + "`;hsqldb.tx=mvcc` or `locks` picks the transaction mode), `jdbc:derby:…` "
                    + "(`memory:NAME;create=true` or a directory; lock timeouts are the database properties "
                    + "`derby.locks.waitTimeout` and `derby.locks.deadlockTimeout`), `jdbc:sqlite:FILE` "
                    + "(`?journal_mode=WAL` or `DELETE`, `&busy_timeout=MS`, default 3000; transactions are always "
                    + "deferred, `transaction_mode` is overridden; `&shared_cache=true` makes `read-uncommitted` "
                    + "dirty-read), `jdbc:duckdb:FILE` (in this process; DuckDB has one level, snapshot isolation: "
                    + "use `--isolation repeatable-read`, as its driver refuses `serializable` and ignores "
                    + "`read-committed`). Repeat it for the nodes of one database (same engine): clients are spread "
                    + "over them round-robin, worker *w* on node *w* mod *n* for the whole run (a process that "
                    + "replaces one after an `info` stays on its node); the first creates and empties the tables, "
                    + "the others must show them empty within 30 s. Commas do not separate targets, since a JDBC URL "
                    + "may contain them (`jdbc:postgresql://h1,h2/db` is one multi-host URL)")
            .flags(List.of("--target"), AGENT_RUN).build();

    public static final OptionDeclaration<String> ISOLATION = OptionDeclaration
            .key("isolation", JDBC_ISOLATION).noDefault("serializable")
            .doc("JDBC targets: the level, mapped to the database's own level of that name; `snapshot` is H2's "
                    + "SNAPSHOT (other engines refuse it). An embedded target names its level itself")
            .flags(List.of("--isolation"), AGENT_RUN).build();

    public static final OptionDeclaration<String> READ_TARGET = OptionDeclaration
            .key("read-target", ValueTypes.text("JDBC URL"))
            .doc("JDBC: a server (a replica) for the transactions that only read; every other transaction goes to "
                    + "the worker's node. Same engine and login as `--target`; it must show the emptied tables "
                    + "within 30 s")
            .flags(List.of("--read-target"), AGENT_RUN).build();

    public static final OptionDeclaration<String> READ_ISOLATION = OptionDeclaration
            .key("read-isolation", JDBC_ISOLATION).noDefault("--isolation")
            .doc("JDBC: the `--read-target`'s level. A PostgreSQL hot standby refuses `serializable`: use "
                    + "`repeatable-read`")
            .flags(List.of("--read-isolation"), AGENT_RUN).build();

    public static final OptionDeclaration<String> USER = OptionDeclaration
            .key("user", ValueTypes.text("user name"))
            .noDefault("$ISOWATCH_DB_USER, for PostgreSQL also $PGUSER, else the URL's")
            .doc("JDBC: the database user")
            .flags(List.of("--user"), AGENT_RUN).build();

    public static final OptionDeclaration<String> PASSWORD = OptionDeclaration
            .key("password", ValueTypes.text("password"))
            .noDefault("$ISOWATCH_DB_PASSWORD, for PostgreSQL also $PGPASSWORD")
            .doc("JDBC: the password; never logged; prefer the environment, which stays out of the process list")
            .flags(List.of("--password"), AGENT_RUN).build();

    public static final OptionDeclaration<String> HISTORY_OUT = OptionDeclaration
            .key("history-out", ValueTypes.text("file"))
            .doc("also write the history as Jepsen JSON lines. Without `--spool-dir` the file is truncated at start; "
                    + "with it the file mirrors the spool: a resumed run first cuts a torn last line and appends "
                    + "every spooled event past the file's last line (refused, naming the fix, if that line is not "
                    + "the spool's event of its index)")
            .flags(List.of("--history-out"), AGENT_RUN).build();

    public static final OptionDeclaration<String> SPOOL_DIR = OptionDeclaration
            .key("spool-dir", ValueTypes.text("directory"))
            .doc("record into a durable Chronicle Queue spool (resumed if it exists: a transaction a crash left "
                    + "open is first recorded as `info` and its process retired). `isowatch agent export` writes it "
                    + "as a history")
            .flags(List.of("--spool-dir"), AGENT_RUN).build();

    public static final OptionDeclaration<String> BOOTSTRAP_SERVERS = OptionDeclaration
            .key("bootstrap-servers", ValueTypes.text("host:port,..."))
            .doc("ship the spool to Kafka (needs `--spool-dir`; `--topic` names the topic)")
            .flags(List.of("--bootstrap-servers"), AGENT_RUN).build();

    public static final OptionDeclaration<String> AGENT_ID = OptionDeclaration
            .key("agent-id", ValueTypes.text("id"))
            .noDefault("the spool's, else NAME-M with `--history NAME --member M`, else HOST-PID-START (the start second)")
            .doc("this agent's id in every event; each agent of a history needs its own")
            .flags(List.of("--agent-id"), AGENT_RUN).build();

    public static final OptionDeclaration<String> HISTORY = OptionDeclaration
            .key("history", ValueTypes.text("name")).noDefault("the agent's own history, named by its id")
            .doc("record one history together with other agents (client hosts): every event names it, the shipper "
                    + "puts it in each Kafka record's `history` header, and the job checks the agents' events as one "
                    + "history. Each agent keeps its own id, spool and numbering; give each a distinct `--member`. "
                    + "A JDBC target's tables are then shared and not emptied at start (one agent's start would delete "
                    + "the others' rows): begin a history on tables without another run's rows (a new `--table-prefix`, "
                    + "or empty them first). 1 to 100 letters, digits, `.`, `_` or `-`")
            .flags(List.of("--history"), AGENT_RUN).build();

    public static final OptionDeclaration<Integer> MEMBER = OptionDeclaration
            .key("member", ValueTypes.integer(0, HistoryMember.MAX_MEMBER)).noDefault("(required with `--history`)")
            .doc("this agent's number in the `--history`, distinct per agent: member M records process n as "
                    + "M × 10^9 + n and writes its n-th value of a key as M × 10^9 + n, so no two agents share a process "
                    + "or append the same element to a key. With an `embedded:` target each agent has a store of its "
                    + "own, so its keys start at M × 2^52 too")
            .flags(List.of("--member"), AGENT_RUN).build();

    public static final OptionDeclaration<Duration> CLOCK_OFFSET = OptionDeclaration
            .key("clock-offset", ValueTypes.signedDuration(ChronoUnit.SECONDS)).defaultValue(Duration.ZERO)
            .doc("a test and diagnostic aid: shifts every recorded time by this much (negative: earlier), as a clock "
                    + "that far off would; used to prove the clock-uncertainty setting")
            .flags(List.of("--clock-offset"), AGENT_RUN).build();

    public static final OptionDeclaration<String> EXPORT_SPOOL_DIR = OptionDeclaration
            .key("spool-dir", ValueTypes.text("directory")).noDefault("(required)")
            .doc("the spool an agent run recorded into (its `--spool-dir`)")
            .flags(List.of("--spool-dir"), "agent export").build();

    /** {@code agent run}'s and {@code agent export}'s own flags, in the docs' order. */
    public static final List<OptionDeclaration<?>> ALL = List.of(TARGET, ISOLATION, READ_TARGET, READ_ISOLATION, USER,
            PASSWORD, HISTORY_OUT, SPOOL_DIR, BOOTSTRAP_SERVERS, AGENT_ID, HISTORY, MEMBER, CLOCK_OFFSET, EXPORT_SPOOL_DIR);

    private AgentDeclarations() {
    }
}
