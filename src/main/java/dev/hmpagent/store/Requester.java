package dev.hmpagent.store;

/** Who asks for something through the file: the process, its user and its host (for audits and requests). */
public record Requester(long pid, String user, String host) {

    /** This process. */
    public static Requester thisProcess() {
        String user = System.getProperty("user.name");
        return new Requester(ProcessHandle.current().pid(), user == null || user.isBlank() ? "?" : user,
                RunnerLock.hostName());
    }
}
