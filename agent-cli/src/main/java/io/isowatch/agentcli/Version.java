package io.isowatch.agentcli;

import picocli.CommandLine;

/** Reports the version from the jar manifest (or "dev" when run from classes). */
public final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
        String v = Version.class.getPackage().getImplementationVersion();
        return new String[] {"isowatch " + (v == null ? "dev" : v)};
    }
}
