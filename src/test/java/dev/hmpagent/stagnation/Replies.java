package dev.hmpagent.stagnation;

/** Realistic consecutive replies of the agent (a thought and a command block, about 2 KB) for the comparators. */
public final class Replies {
    private Replies() { }

    /**
     * A paraphrase loop without commands: one idea (read the backup log) said eight times, each reply the one before
     * in other words. Short replies share few content words, so consecutive ones score 0.67-0.85 locally, four of
     * the seven pairs above 0.8, among new steps on the same topic (0.84-0.89 in {@link LocalComparator}'s measures).
     */
    public static final java.util.List<String> PARAPHRASE_LOOP = java.util.List.of(
            "I should look at the backup log to see why last night's job failed.",
            "Let me inspect the log of the nightly backup to find out what went wrong.",
            "The backup's log file will tell me the reason the job failed yesterday; I'll read it.",
            "To understand the failed nightly run, reading the backup log is the next step.",
            "What broke the backup last night? Its log should say, so I'll examine it.",
            "Before anything else, the nightly backup's log needs a look: it holds the cause of the failure.",
            "Reading the log of last night's backup is how I'll learn why the job did not finish.",
            "The next thing is the backup log; whatever made the nightly run fail should be written there.");

    /** The previous reply: investigating why the nightly backup failed. */
    static final String BACKUP = """
            I am still looking into why the nightly backup failed. The log from last night shows that the backup \
            script stopped at 02:14 with a permission error on /var/backups/db. My guess is that the cron job runs \
            as the backup user, but the directory was recreated by root during yesterday's cleanup, so the backup \
            user can no longer write there. Before changing anything I want to confirm this.
            First I will list the directory with its owner and mode. Then I will read the cron entry to see which \
            user runs the job. If the owner is root, the simplest fix is to give the directory back to the backup \
            user; I should not run the whole backup as root, because that would hide the real problem and widen \
            what a broken script can touch.
            I also noticed that the script exits with code 0 even when the copy fails, which is why nobody was \
            alerted. That deserves a note in the diary so I remember to ask the user whether I may change the exit \
            code. For now I keep to reading: no writes until I know the cause.
            The disk itself looks fine: the last successful backup, two nights ago, wrote 1.7 GB and the volume \
            had room for several more. The other nightly jobs on this host (log rotation and the package update \
            check) ran as usual, so the problem is limited to this one script and its target directory.

            # Commands:
            ```json
            [{"cmd_id": "c-1", "type": "shell", "args": {"cmd": "ls -ld /var/backups/db"}, "description": "owner and mode of the backup directory"},
             {"cmd_id": "c-2", "type": "shell", "args": {"cmd": "crontab -l -u backup"}, "description": "which user runs the nightly job"},
             {"cmd_id": "c-3", "type": "diary_entry", "args": {"text": "The backup script exits 0 on a failed copy. Ask the user before changing it."}}]
            ```
            # End commands
            """;

    /** {@link #BACKUP} with one word changed ("simplest" to "easiest"). */
    static final String BACKUP_ONE_WORD = BACKUP.replace("the simplest fix", "the easiest fix");

    /** The same ideas as {@link #BACKUP} in other words, the same commands (a model going round in circles). */
    static final String BACKUP_PARAPHRASED = """
            The failed nightly backup is what I am still investigating. According to last night's log, the backup \
            script halted at 02:14 because of a permission error on /var/backups/db. I suspect the cron job runs \
            under the backup user while root recreated the directory during the cleanup yesterday, which left the \
            backup user unable to write into it. I would like to confirm that before I change anything.
            I will start by listing the directory's owner and mode, and then read the cron entry to find out which \
            user the job runs as. Should root own the directory, handing it back to the backup user is the simplest \
            fix. Running the entire backup as root is a bad idea, since it would mask the actual problem and give a \
            broken script more reach.
            Another thing: the script returns exit code 0 even if the copy fails, and that is why no alert went out. \
            I will put this in the diary to remember asking the user whether the exit code may be changed. Until I \
            know the cause I only read and write nothing.
            The disk does not seem to be the issue: two nights ago the previous good backup wrote 1.7 GB, and \
            there was space left on the volume for a few more. Log rotation and the package update check, the \
            other nightly jobs on this host, ran normally, which narrows the problem to this single script and \
            the directory it writes to.

            # Commands:
            ```json
            [{"cmd_id": "c-1", "type": "shell", "args": {"cmd": "ls -ld /var/backups/db"}, "description": "owner and mode of the backup directory"},
             {"cmd_id": "c-2", "type": "shell", "args": {"cmd": "crontab -l -u backup"}, "description": "which user runs the nightly job"},
             {"cmd_id": "c-3", "type": "diary_entry", "args": {"text": "The backup script exits 0 on a failed copy. Ask the user before changing it."}}]
            ```
            # End commands
            """;

    /** {@link #BACKUP_PARAPHRASED} with its commands reworded as well (other ids, descriptions and diary text). */
    static final String BACKUP_PARAPHRASED_COMMANDS = BACKUP_PARAPHRASED.substring(0,
            BACKUP_PARAPHRASED.indexOf("# Commands:")) + """
            # Commands:
            ```json
            [{"cmd_id": "owner", "type": "shell", "args": {"cmd": "stat -c '%U %a' /var/backups/db"}, "description": "who owns the directory"},
             {"cmd_id": "cron", "type": "shell", "args": {"cmd": "crontab -u backup -l"}, "description": "the user of the nightly job"},
             {"cmd_id": "note", "type": "diary_entry", "args": {"text": "A failed copy still gives exit 0; check with the user before touching the script."}}]
            ```
            # End commands
            """;

    /** The next step on the same topic: the cause found, a fix made, a new problem (the exit code) analysed. */
    static final String BACKUP_NEXT_STEP = """
            The listing settled it: /var/backups/db belongs to root with mode 755, and the crontab shows the job \
            runs as backup, so the permission error is explained. I gave the directory back to backup:backup with \
            chown, and I will now run the script by hand once, as that user, to see it complete. If it does, \
            tonight's run needs nothing more.
            The silent failure is a separate matter. I read the script: rsync is piped into tee for the log, and \
            without pipefail a pipeline returns the status of its last part, which is tee and always succeeds. \
            Adding set -o pipefail near the top would turn a failed rsync into a failed job, and the cron mail that \
            already exists would then reach the admin.
            That edit touches a file the user owns, so I will propose it instead of making it. One more risk: a \
            full disk gives the same symptom, so I am checking free space on the volume as well.

            # Commands:
            ```json
            [{"cmd_id": "c-4", "type": "shell", "args": {"cmd": "sudo -u backup /usr/local/bin/nightly-backup.sh"}, "description": "a manual run as the job's user"},
             {"cmd_id": "c-5", "type": "shell", "args": {"cmd": "df -h /var/backups"}, "description": "free space on the volume"},
             {"cmd_id": "c-6", "type": "ask_user", "args": {"question": "May I add set -o pipefail to nightly-backup.sh so a failed rsync is reported?"}}]
            ```
            # End commands
            """;

    /** The step after {@link #BACKUP_NEXT_STEP}: the fix works, now a restore test (same host, same backups). */
    static final String BACKUP_RESTORE_TEST = """
            The manual run finished: 1.8 GB in four minutes, and the dump is in place with today's date. A backup \
            nobody has restored is only a hope, so before I call this fixed I want a restore test. I will load the \
            new dump into a scratch database on the staging host, count the rows of the three largest tables and \
            compare them with production. Staging has 40 GB free, enough for one copy.
            If the counts match, I will mark the goal as reached and write the user a short summary: what broke \
            (the directory owner after the cleanup), what I changed (chown back to the job's user) and what is \
            still waiting for their answer (pipefail). If they do not match, the dump is incomplete and I will \
            compare its size with the one from two nights ago.

            # Commands:
            ```json
            [{"cmd_id": "c-7", "type": "shell", "args": {"cmd": "ssh staging createdb scratch_restore"}, "description": "an empty database for the test"},
             {"cmd_id": "c-8", "type": "shell", "args": {"cmd": "ssh staging pg_restore -d scratch_restore /srv/dumps/latest.dump"}, "description": "restore the new dump"},
             {"cmd_id": "c-9", "type": "goal_update", "args": {"goal": "nightly backup", "status": "verifying restore"}}]
            ```
            # End commands
            """;

    /** A reply about something else altogether. */
    static final String UNRELATED = """
            The quarterly report needs three charts: revenue by region, churn by plan and the support queue over \
            time. I will draft them from the spreadsheet the user shared and send a preview before the meeting.
            """;
}
