package io.isowatch.agent.client.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * One connection's append and write upserts, prepared once, in the shape its {@link Dialect}
 * gives them: one statement, or an {@code UPDATE} followed, when it matched no row, by an {@code
 * INSERT} in the same transaction. The client and the factory's probe both run them through
 * here, so the two shapes are executed in one place.
 *
 * <p>Not thread-safe: it belongs to the connection's owner.
 */
final class Upserts implements AutoCloseable {

    private final Dialect dialect;
    private final PreparedStatement append;
    private final PreparedStatement appendInsert;
    private final PreparedStatement write;
    private final PreparedStatement writeInsert;

    Upserts(Connection c, JdbcTarget target) throws SQLException {
        this.dialect = target.dialect();
        this.append = c.prepareStatement(dialect.append(target.appendTable()));
        this.write = c.prepareStatement(dialect.write(target.registerTable()));
        String appendInsertSql = dialect.insert(target.appendTable());
        this.appendInsert = appendInsertSql == null ? null : c.prepareStatement(appendInsertSql);
        String writeInsertSql = dialect.insert(target.registerTable());
        this.writeInsert = writeInsertSql == null ? null : c.prepareStatement(writeInsertSql);
    }

    /** Appends {@code value} (as text) to the list at {@code key}. */
    void append(long key, String value) throws SQLException {
        bind(append, key, value);
        if (append.executeUpdate() == 0 && appendInsert != null) {
            bind(appendInsert, key, value);
            appendInsert.executeUpdate();
        }
    }

    /** Sets the register at {@code key} to {@code value}. */
    void write(long key, long value) throws SQLException {
        bind(write, key, value);
        if (write.executeUpdate() == 0 && writeInsert != null) {
            bind(writeInsert, key, value);
            writeInsert.executeUpdate();
        }
    }

    private void bind(PreparedStatement s, long key, Object value) throws SQLException {
        int k = dialect.valueFirst() ? 2 : 1;
        s.setLong(k, key);
        if (value instanceof String text) {
            s.setString(3 - k, text);
        } else {
            s.setLong(3 - k, (Long) value);
        }
    }

    @Override
    public void close() throws SQLException {
        for (PreparedStatement s : new PreparedStatement[] {append, appendInsert, write, writeInsert}) {
            if (s != null) {
                s.close();
            }
        }
    }
}
