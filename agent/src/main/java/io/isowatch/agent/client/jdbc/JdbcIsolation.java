package io.isowatch.agent.client.jdbc;

import java.sql.Connection;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The ANSI isolation level a JDBC run asks for. Each maps to the JDBC constant, which both
 * PostgreSQL's and MariaDB's drivers turn into the database's own {@code SET SESSION ...
 * ISOLATION LEVEL}. What a level really guarantees is the database's business, and finding
 * that out is the point: PostgreSQL runs {@code READ UNCOMMITTED} as read committed and
 * {@code REPEATABLE READ} as snapshot isolation; InnoDB's {@code REPEATABLE READ} is weaker than
 * snapshot isolation (see docs/findings.md). {@code snapshot} is H2's own fifth level, which its
 * driver takes as the non-standard constant 6 ({@code org.h2.engine.Constants.TRANSACTION_SNAPSHOT});
 * other engines refuse it ({@link JdbcTarget}).
 */
public enum JdbcIsolation {
    SERIALIZABLE("serializable", Connection.TRANSACTION_SERIALIZABLE),
    REPEATABLE_READ("repeatable-read", Connection.TRANSACTION_REPEATABLE_READ),
    READ_COMMITTED("read-committed", Connection.TRANSACTION_READ_COMMITTED),
    READ_UNCOMMITTED("read-uncommitted", Connection.TRANSACTION_READ_UNCOMMITTED),
    SNAPSHOT("snapshot", 6);

    private final String cliName;
    private final int jdbcLevel;

    JdbcIsolation(String cliName, int jdbcLevel) {
        this.cliName = cliName;
        this.jdbcLevel = jdbcLevel;
    }

    /** The name on the command line, e.g. {@code repeatable-read}. */
    public String cliName() {
        return cliName;
    }

    /** The {@code java.sql.Connection.TRANSACTION_*} constant. */
    public int jdbcLevel() {
        return jdbcLevel;
    }

    /**
     * The level named {@code name}: {@code repeatable-read}, {@code REPEATABLE READ} and
     * {@code repeatable_read} all work.
     *
     * @throws IllegalArgumentException naming the known levels
     */
    public static JdbcIsolation fromName(String name) {
        String n = name.trim().toLowerCase(Locale.ROOT).replace('_', '-').replace(' ', '-');
        for (JdbcIsolation level : values()) {
            if (level.cliName.equals(n)) {
                return level;
            }
        }
        throw new IllegalArgumentException("unknown isolation level '" + name + "'; expected one of "
                + Arrays.stream(values()).map(JdbcIsolation::cliName).collect(Collectors.joining(", ")));
    }
}
