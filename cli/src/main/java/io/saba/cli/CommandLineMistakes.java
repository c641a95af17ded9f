package io.saba.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.MissingParameterException;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The one line a bad command line gets. A misspelt command or option is named with picocli's suggestions, and
 * named first: a misspelt {@code --tabel} is the mistake, the {@code --table} it leaves missing only its consequence.
 */
final class CommandLineMistakes {
    private static final Pattern OPTION = Pattern.compile("--?[A-Za-z].*");

    private CommandLineMistakes() {
    }

    static String describe(ParameterException e, String[] args) {
        UnmatchedArgumentException unmatched = e instanceof UnmatchedArgumentException u ? u
                : e instanceof MissingParameterException ? firstUnknown(e.getCommandLine(), args) : null;
        if (unmatched == null || unmatched.getUnmatched().isEmpty()) {
            return e.getCommandLine().getCommandSpec().qualifiedName() + ": " + e.getMessage();
        }
        CommandLine at = unmatched.getCommandLine();
        String arg = unmatched.getUnmatched().get(0);
        String what = OPTION.matcher(arg).matches() ? "unknown option"
                : at.getSubcommands().isEmpty() ? "unexpected argument" : "unknown command";
        List<String> suggestions = unmatched.getSuggestions();
        if (what.equals("unknown command") && suggestions.size() > 1) {
            suggestions = suggestions.subList(0, 1); // the most similar; the others are rarely what was meant
        }
        return at.getCommandSpec().qualifiedName() + ": " + what + " '" + arg.replaceFirst("=.*", "") + "'"
                + (suggestions.isEmpty() ? "" : "; did you mean " + String.join(" or ", suggestions) + "?");
    }

    /** The first option the command line gives that its command does not have, walking down its subcommands. */
    private static UnmatchedArgumentException firstUnknown(CommandLine failed, String[] args) {
        CommandLine cmd = root(failed);
        for (String arg : args) {
            if (arg.equals("--")) {
                return null;
            }
            CommandLine sub = cmd.getSubcommands().get(arg);
            if (sub != null) {
                cmd = sub;
            } else if (OPTION.matcher(arg).matches() && cmd.getCommandSpec().findOption(arg.replaceFirst("=.*", ""))
                    == null && !isShortCluster(cmd.getCommandSpec(), arg)) {
                return new UnmatchedArgumentException(cmd, new ArrayList<>(List.of(arg)));
            }
        }
        return null;
    }

    private static boolean isShortCluster(CommandSpec spec, String arg) {
        return !arg.startsWith("--") && arg.length() > 2 && spec.findOption(arg.substring(0, 2)) != null;
    }

    private static CommandLine root(CommandLine c) {
        while (c.getParent() != null) {
            c = c.getParent();
        }
        return c;
    }
}
