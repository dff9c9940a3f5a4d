# Run by the agent as root, in a private mount namespace of its own (unshare -m), just before it drops to an
# unprivileged uid (setpriv) and starts bubblewrap. Each path the sandbox binds from the host is cloned (open_tree) and
# the clone idmapped (mount_setattr) so that the path's owner appears as the unprivileged uid: the command works in the
# file roots as their owner while the kernel sees it as that uid everywhere else, and what it creates there is owned on
# disk by the roots' owner. The clones are then mounted on a tmpfs over STAGE (in this namespace only), one entry per
# path numbered from 0, where bubblewrap, run as the unprivileged uid, can reach them.
# Arguments: UID GID STAGE (ro|rw):PATH... -- COMMAND...
use strict;
use warnings;
use POSIX ();
my ($uid, $gid, $stage) = splice(@ARGV, 0, 3);
my @items;
while (@ARGV && $ARGV[0] ne '--') { push @items, shift @ARGV; }
shift @ARGV;
sub fail { print STDERR "sandbox: could not map the file roots to uid $uid: $_[0]\n"; exit 126; }
fail("no command") unless @ARGV;
# uid_map lines (inside outside count) that swap OWNER and TO and keep every other id as it is
sub map_lines {
    my ($owner, $to) = @_;
    return "0 0 4294967295\n" if $owner == $to;
    my ($lo, $hi) = $owner < $to ? ($owner, $to) : ($to, $owner);
    my @l = ("$owner $to 1", "$to $owner 1");
    push @l, "0 0 $lo" if $lo > 0;
    push @l, ($lo + 1) . " " . ($lo + 1) . " " . ($hi - $lo - 1) if $hi - $lo > 1;
    push @l, ($hi + 1) . " " . ($hi + 1) . " " . (4294967295 - $hi - 1) if $hi < 4294967294;
    return join("\n", @l) . "\n";
}
my (%userns, @children);
# a user namespace (held by a sleeping child) whose maps swap the owner of a path with the unprivileged ids
sub userns_fd {
    my ($owner, $group) = @_;
    my $key = "$owner:$group";
    return fileno($userns{$key}) if $userns{$key};
    my $pid = fork() // fail("fork: $!");
    if ($pid == 0) { exec('unshare', '--user', '--', 'sleep', '60') or POSIX::_exit(127); }
    push @children, $pid;
    my $mine = readlink('/proc/self/ns/user');
    for (my $i = 0; ; $i++) {
        my $theirs = readlink("/proc/$pid/ns/user");
        last if defined $theirs && $theirs ne $mine;
        fail("unshare --user did not start") if $i > 2500 || waitpid($pid, POSIX::WNOHANG()) == $pid;
        select(undef, undef, undef, 0.002);
    }
    for my $f (["uid_map", map_lines($owner, $uid)], ["setgroups", "deny\n"], ["gid_map", map_lines($group, $gid)]) {
        open(my $h, '>', "/proc/$pid/$f->[0]") or fail("$f->[0]: $!");
        print $h $f->[1] or fail("$f->[0]: $!");
        close($h) or fail("$f->[0]: $!");
    }
    open(my $ns, '<', "/proc/$pid/ns/user") or fail("user namespace: $!");
    $userns{$key} = $ns;
    return fileno($ns);
}
my @clones;
for my $item (@items) {
    my ($mode, $path) = $item =~ /^(ro|rw):(.*)$/s or fail("bad item $item");
    my @st = stat($path);
    if (!@st) { push @clones, undef; next; }            # gone: bubblewrap's --bind-try leaves it out
    my ($src, $none) = ("$path", "");                  # syscall() wants strings it may write to
    my $tree = syscall(428, -100, $src, 0x80001);      # open_tree(AT_FDCWD, path, OPEN_TREE_CLONE | O_CLOEXEC)
    fail("open_tree $path: $!") if $tree < 0;
    my $attr = pack('QQQQ', 0x00100000 | ($mode eq 'ro' ? 1 : 0), 0, 0, userns_fd($st[4], $st[5]));
    syscall(442, $tree, $none, 0x1000, $attr, 32) == 0 # mount_setattr(fd, "", AT_EMPTY_PATH, MOUNT_ATTR_IDMAP[|RDONLY])
        or fail("$path is on a file system that cannot be idmapped ($!)");
    push @clones, [$tree, POSIX::S_ISDIR($st[2])];
}
kill('KILL', @children) if @children;
waitpid($_, 0) for @children;
close($_) for values %userns;
system('mount', '-t', 'tmpfs', '-o', 'mode=0755,size=64k', 'hmp-agent-stage', $stage) == 0
    or fail("could not mount a tmpfs on $stage");
for my $n (0 .. $#clones) {
    my $clone = $clones[$n] or next;
    my ($tree, $dir) = @$clone;
    my ($to, $none) = ("$stage/$n", "");
    if ($dir) { mkdir($to) or fail("mkdir $to: $!"); }
    else { open(my $h, '>', $to) or fail("$to: $!"); close($h); }
    syscall(429, $tree, $none, -100, $to, 4) == 0     # move_mount(fd, "", AT_FDCWD, to, MOVE_MOUNT_F_EMPTY_PATH)
        or fail("move_mount $items[$n]: $!");
    POSIX::close($tree);
}
exec { $ARGV[0] } @ARGV or fail("exec $ARGV[0]: $!");
