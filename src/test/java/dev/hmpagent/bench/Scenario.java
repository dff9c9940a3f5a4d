package dev.hmpagent.bench;

import dev.hmpagent.bench.StagnationBench.Label;
import dev.hmpagent.bench.StagnationBench.Step;
import dev.hmpagent.stagnation.Replies;
import java.util.ArrayList;
import java.util.List;

/**
 * The labelled 50-tick script of {@link StagnationBench}: an agent thinking on its own about why a nightly backup
 * fails. 25 new replies (two in three add a concept, as a thinking agent's graph grows; the third is thought
 * alone), 17 word-for-word repeats (of the
 * reply before, or of an earlier one) and 8 paraphrases (the idea of the reply before in other words), in 11
 * episodes of two or three ticks.
 */
final class Scenario {
    private Scenario() { }

    /** The 25 new thoughts, in the order they come. */
    private static final String[] NEW = {
        "The nightly backup failed again at 02:14. The log ends with 'connection reset by peer' while uploading the"
                + " third archive, so the network path to the storage host is my first suspect.",
        "The storage host's own log shows no error at 02:14, only a client that went away. That points back at our"
                + " side: something on this machine dropped the connection.",
        "A cron job rotates the firewall rules at 02:10 every night. Reloading the rules can flush established"
                + " connections, which would explain a reset four minutes later in a long upload.",
        "To test the firewall idea I can compare the reload times with every failed night of the last month. If"
                + " the failures cluster right after reloads, the cause is almost certain.",
        "The comparison is clear: 11 of 12 failures started within five minutes of a rule reload, and no"
                + " successful night had an upload running during a reload.",
        "Two fixes are possible: move the backup to 03:00, or make the reload keep established connections."
                + " Moving the schedule is cheap but fragile if either job grows longer.",
        "Keeping established connections needs one rule accepting RELATED,ESTABLISHED traffic before the flush."
                + " That is the robust fix, and it also protects other long transfers.",
        "Before changing the firewall I should know who owns the reload script. A change there without its owner"
                + " could break the VPN rules it also manages.",
        "The reload script belongs to the network team; their runbook says changes go through a ticket with a"
                + " rollback plan. I will draft the ticket with the evidence from the logs.",
        "Meanwhile the backup can resume uploads. The tool supports a --resume flag that skips archives already"
                + " stored, which would make a reset cost minutes instead of the whole night.",
        "Testing --resume on a copy of last night's set: it skipped the two complete archives and restarted the"
                + " third from its beginning, not from the byte where it stopped.",
        "So resuming works per archive, not per byte. Splitting the third archive, which is 40 GB, into smaller"
                + " volumes would make each restart cheaper.",
        "Volumes of 2 GB would mean at most 2 GB uploaded twice after a reset. The archive tool can split with"
                + " --volume-size, and the restore side reads split sets without changes.",
        "I have not checked the restore path at all. A backup that uploads fine but cannot be restored is worse"
                + " than a failing one, because nobody notices.",
        "A restore test needs a scratch disk of at least 60 GB. The build server has 80 GB free on /scratch and is"
                + " idle at night, so it can host the test.",
        "The restore test finished: all volumes verified, checksums match, and the database dump loads into a"
                + " fresh instance in 18 minutes.",
        "One thing the restore showed: the dump is taken while the application writes. The dump tool's"
                + " --single-transaction option would give a consistent snapshot.",
        "The application uses InnoDB tables only, so --single-transaction is safe and takes no global lock; the"
                + " MyISAM caveat in the manual does not apply here.",
        "Adding monitoring would catch the next failure the same morning: the backup could push its exit code"
                + " and duration to the metrics server after each run.",
        "An alert should fire when no successful backup was recorded for 26 hours, which covers a late run"
                + " without paging anyone for a single slow night.",
        "The ticket for the network team is ready: evidence, the proposed ESTABLISHED rule, and a rollback that"
                + " restores the old rule file from git.",
        "Cost check: the split volumes add about 3 % overhead in storage because each volume has its own header"
                + " and index. That is acceptable.",
        "Retention is the next question. We keep 30 nightly sets; with split volumes and a weekly full, 8 weeks"
                + " would fit in the same space.",
        "A weekly full plus daily incrementals would cut the nightly upload from 40 GB to about 3 GB, which also"
                + " shrinks the window in which a reset can hurt.",
        "Summary for the team: the cause is the firewall reload, the fix is an ESTABLISHED rule, and resumable"
                + " split uploads plus monitoring make the next incident cheaper.",
    };

    /** The same ideas as some new thoughts, in other words: {index of the new thought, paraphrase}. */
    private static final Object[][] PARAPHRASES = {
        {4, "The numbers leave little doubt: eleven of the twelve failed nights began less than five minutes after"
                + " the rules were reloaded, while no good night ever had an upload in flight during a reload."},
        {4, "Nearly every failure, 11 out of 12, started within five minutes of a firewall reload, and on the nights"
                + " that succeeded no upload was running while the rules reloaded. The correlation is clear."},
        {8, "The network team owns that reload script, and their runbook asks for a ticket with a rollback plan"
                + " before any change; I will write that ticket using the log evidence."},
        {8, "Since the script is the network team's, any change goes through their ticket process with a way to"
                + " roll back, as their runbook says. I'll prepare that ticket with what the logs show."},
        {15, "The restore worked end to end: every volume checked out, the checksums agree, and loading the database"
                + " dump into a new instance took 18 minutes."},
        {15, "Restoring succeeded: volumes verified, checksums identical, and the dump loaded into a fresh database"
                + " instance in eighteen minutes."},
        {22, "How long to keep backups is the next thing to decide. Thirty nightly sets today; with a weekly full"
                + " and split volumes we could hold eight weeks in the same storage."},
        {22, "Next: retention. Instead of 30 nightly sets, a weekly full backup with split volumes would let the"
                + " same space hold about eight weeks of history."},
    };

    /** The labels, one per tick: N new, R repeat (of the step given in REPEAT_OF), P paraphrase. */
    private static final String LABELS = "NNNRRNNPPNNNRRRNPPNNNRRNNNRRNPPNNRRRNNNNRRNPPNRRRN";

    /** For each R, the 1-based tick it repeats word for word (the tick before, or an earlier one). */
    private static final int[] REPEAT_OF = {3, 3, 12, 12, 12, 21, 21, 26, 26, 33, 33, 33, 38, 41, 46, 46, 46};

    /** The paraphrase loop: its first reply new, every later one a paraphrase of the one before. */
    static List<Step> paraphraseLoop() {
        List<Step> out = new ArrayList<>();
        List<String> loop = Replies.PARAPHRASE_LOOP;
        for (int i = 0; i < loop.size(); i++) out.add(new Step(i == 0 ? Label.NEW : Label.PARAPHRASE, loop.get(i)));
        return out;
    }

    /** The 25 new thoughts alone, in order (for a bench that needs realistic replies, not labels). */
    static List<String> thoughts() {
        return List.of(NEW);
    }

    static List<Step> steps() {
        List<Step> out = new ArrayList<>();
        int n = 0;
        int r = 0;
        int p = 0;
        for (int i = 0; i < LABELS.length(); i++) {
            switch (LABELS.charAt(i)) {
                case 'N' -> {
                    // every third new thought is thinking alone, with no command: only its words tell it is new
                    out.add(new Step(Label.NEW, NEW[n] + (n % 3 == 2 ? "" : commands(n))));
                    n++;
                }
                case 'R' -> out.add(new Step(Label.REPEAT, out.get(REPEAT_OF[r++] - 1).text()));
                case 'P' -> out.add(new Step(Label.PARAPHRASE, (String) PARAPHRASES[p++][1]));
                default -> throw new IllegalStateException("label " + LABELS.charAt(i));
            }
        }
        if (n != NEW.length || r != REPEAT_OF.length || p != PARAPHRASES.length) {
            throw new IllegalStateException("the labels and the texts disagree: " + n + "/" + r + "/" + p);
        }
        return out;
    }

    /** A concept per new thought: the graph grows while the agent has new ideas. */
    private static String commands(int n) {
        return "\n# Commands:\n```json\n[{\"cmd_id\": \"c-" + (n + 1) + "\", \"type\": \"concept_add\", \"args\": {\"name\":"
                + " \"backup finding " + (n + 1) + "\", \"description\": \"from the nightly backup investigation\"}}]\n```\n"
                + "# End commands\n";
    }
}
