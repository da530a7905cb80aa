package io.isowatch.agent.client.jdbc;

import io.isowatch.checker.Workload;

import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Where and how a JDBC run connects: the URL, the credentials, the isolation level, the
 * workload, and the prefix of the two tables isowatch owns ({@code <prefix>_append} and
 * {@code <prefix>_register}).
 *
 * <p>The password never appears in {@link #toString()} or in any message: use
 * {@link #redactedUrl()} to name the target.
 *
 * @param url         a {@code jdbc:postgresql:}, {@code jdbc:mariadb:} or {@code jdbc:mysql:} URL
 * @param user        the user, or null to leave it to the URL or the driver
 * @param password    the password, or null
 * @param isolation   the level every transaction runs at
 * @param workload    list-append or rw-register
 * @param tablePrefix an SQL identifier; the run empties its tables at start
 */
public record JdbcTarget(String url, String user, String password, JdbcIsolation isolation, Workload workload,
                         String tablePrefix) {

    /** The table prefix unless {@code --table-prefix} says otherwise. */
    public static final String DEFAULT_TABLE_PREFIX = "isowatch";

    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,40}");
    private static final Pattern USERINFO = Pattern.compile("(//)[^/@?]*@");
    private static final Pattern PASSWORD_PARAM = Pattern.compile("(?i)(password=)[^&;]*");

    public JdbcTarget {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(isolation, "isolation");
        Objects.requireNonNull(workload, "workload");
        Objects.requireNonNull(tablePrefix, "tablePrefix");
        Dialect dialect = Dialect.of(url);
        if (isolation == JdbcIsolation.SNAPSHOT && dialect != Dialect.H2) {
            throw new IllegalArgumentException("isolation 'snapshot' is H2's own level; " + dialect.displayName()
                    + " has no level of that name (PostgreSQL's repeatable-read is snapshot isolation)");
        }
        if (!IDENTIFIER.matcher(tablePrefix).matches()) {
            throw new IllegalArgumentException("table prefix must be a plain SQL identifier (letters, digits, _), got '"
                    + tablePrefix + "'");
        }
    }

    /** A target at {@code url} with no explicit credentials and the default table prefix. */
    public static JdbcTarget of(String url, JdbcIsolation isolation, Workload workload) {
        return new JdbcTarget(url, null, null, isolation, workload, DEFAULT_TABLE_PREFIX);
    }

    public JdbcTarget withCredentials(String newUser, String newPassword) {
        return new JdbcTarget(url, newUser, newPassword, isolation, workload, tablePrefix);
    }

    public JdbcTarget withTablePrefix(String prefix) {
        return new JdbcTarget(url, user, password, isolation, workload, prefix);
    }

    /** The same login, level, workload and tables on another server (another node of a cluster). */
    public JdbcTarget withUrl(String newUrl) {
        return new JdbcTarget(newUrl, user, password, isolation, workload, tablePrefix);
    }

    public JdbcTarget withIsolation(JdbcIsolation level) {
        return new JdbcTarget(url, user, password, level, workload, tablePrefix);
    }

    /**
     * Fills in missing credentials from the environment: {@code ISOWATCH_DB_USER} and
     * {@code ISOWATCH_DB_PASSWORD}, then, for PostgreSQL, {@code PGUSER} and {@code PGPASSWORD}.
     */
    public JdbcTarget withCredentialsFrom(Map<String, String> env) {
        String u = user != null ? user : firstOf(env, "ISOWATCH_DB_USER", dialect() == Dialect.POSTGRESQL ? "PGUSER" : null);
        String p = password != null ? password
                : firstOf(env, "ISOWATCH_DB_PASSWORD", dialect() == Dialect.POSTGRESQL ? "PGPASSWORD" : null);
        return new JdbcTarget(url, u, p, isolation, workload, tablePrefix);
    }

    private static String firstOf(Map<String, String> env, String first, String second) {
        String v = env.get(first);
        if ((v == null || v.isEmpty()) && second != null) {
            v = env.get(second);
        }
        return v == null || v.isEmpty() ? null : v;
    }

    public Dialect dialect() {
        return Dialect.of(url);
    }

    /**
     * The URL handed to the driver. {@code jdbc:mysql:} becomes {@code jdbc:mariadb:}: the
     * MariaDB driver speaks MySQL's protocol but accepts the mysql scheme only with an option.
     */
    String driverUrl() {
        return url.regionMatches(true, 0, "jdbc:mysql:", 0, 11) ? "jdbc:mariadb:" + url.substring(11) : url;
    }

    public String appendTable() {
        return tablePrefix + "_append";
    }

    public String registerTable() {
        return tablePrefix + "_register";
    }

    /** The URL without a password in its user info or parameters, for messages. */
    public String redactedUrl() {
        return redact(url);
    }

    /** {@code url} without a password in its user info or parameters. */
    public static String redact(String url) {
        String u = USERINFO.matcher(url).replaceAll("$1***@");
        return PASSWORD_PARAM.matcher(u).replaceAll("$1***");
    }

    @Override
    public String toString() {
        return "JdbcTarget[" + redactedUrl() + ", user=" + user + ", password=" + (password == null ? "none" : "***")
                + ", " + isolation.cliName() + ", " + workload.elleName() + ", tables " + tablePrefix.toLowerCase(Locale.ROOT)
                + "_*]";
    }
}
