# Run by the agent as root, in a private mount namespace of its own (unshare -m), just before it drops to an
# unprivileged uid (setpriv) and starts bubblewrap. Each path the sandbox binds from the host is cloned (open_tree) and
# the clone idmapped (mount_setattr) so that the path's owner appears as the unprivileged uid: the command works in the
# file roots as their owner while the kernel sees it as that uid everywhere else, and what it creates there is owned on
# disk by the roots' owner. The clones are then mounted on a tmpfs over STAGE (in this namespace only), one entry per
# path numbered from 0, where bubblewrap, run as the unprivileged uid, can reach them. No module is loaded (POSIX alone
# costs ~9 ms a command, and strict and warnings ~4 ms: the code was written and tested under both); the new mount
# API's syscall numbers are the same on every architecture.
# Arguments: UID GID STAGE (ro|rw):PATH... -- COMMAND...
my ($uid, $gid, $stage) = splice(@ARGV, 0, 3);
my @items;
while (@ARGV && $ARGV[0] ne '--') { push @items, shift @ARGV; }
shift @ARGV;
sub fail { print STDERR "sandbox: could not map the file roots to uid $uid: $_[0]\n"; exit 126; }
fail("no command") unless @ARGV;
# unshare(2) where its number is known; elsewhere the unshare program makes the namespace
my %UNSHARE = (x86_64 => 272, aarch64 => 97, riscv64 => 97, loongarch64 => 97, ppc64le => 282, ppc64 => 282,
    s390x => 303, i686 => 310, i386 => 310, armv7l => 337);
my $machine = '';
if (open(my $a, '<', '/proc/sys/kernel/arch')) { $machine = <$a> // ''; chomp $machine; close($a); }
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
# a user namespace (held by a child until this process execs) whose maps swap a path's owner with the unprivileged ids
sub userns_fd {
    my ($owner, $group) = @_;
    my $key = "$owner:$group";
    return fileno($userns{$key}) if $userns{$key};
    pipe(my $ready_r, my $ready_w) or fail("pipe: $!");
    pipe(my $hold_r, my $hold_w) or fail("pipe: $!");
    my $pid = fork() // fail("fork: $!");
    if ($pid == 0) {
        close($ready_r); close($hold_w);
        if (my $nr = $UNSHARE{$machine}) {
            syscall($nr, 0x10000000) == 0 or exit 1;             # CLONE_NEWUSER
            syswrite($ready_w, "1"); close($ready_w);
            sysread($hold_r, my $b, 1);                           # until the parent is done with the namespace
            exit 0;
        }
        open(STDIN, '<&', $hold_r) and open(STDOUT, '>&', $ready_w) or exit 1;
        exec('unshare', '--user', '--', 'sh', '-c', 'echo 1; exec cat > /dev/null') or exit 127;
    }
    close($ready_w); close($hold_r);
    push @children, [$pid, $hold_w];
    sysread($ready_r, my $b, 1) == 1 or fail("no user namespace for the mapping");
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
    # the path as it is, no symbolic link followed anywhere on it (a command may have planted one inside a root):
    # openat2(AT_FDCWD, path, {O_PATH | O_CLOEXEC, 0, RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS})
    my ($src, $none) = ("$path", "");                  # syscall() wants strings it may write to
    my $how = pack('QQQ', 0x200000 | 0x80000, 0, 0x04 | 0x02);
    my $at = syscall(437, -100, $src, $how, 24);
    if ($at < 0) {
        if ($!{ENOENT}) { push @clones, undef; next; }   # gone: bubblewrap's --bind-try leaves it out
        fail("$path: $!" . ($!{ELOOP} ? " (a symbolic link on the way: refused)" : ""));
    }
    open(my $fh, '<&=', $at) or fail("$path: $!");
    my @st = stat($fh) or fail("$path: $!");
    my $dir = -d _;
    my $tree = syscall(428, $at, $none, 0x80000 | 0x1000 | 1);  # open_tree(fd, "", CLOEXEC | AT_EMPTY_PATH | CLONE)
    fail("open_tree $path: $!") if $tree < 0;
    my $attr = pack('QQQQ', 0x00100000 | ($mode eq 'ro' ? 1 : 0), 0, 0, userns_fd($st[4], $st[5]));
    syscall(442, $tree, $none, 0x1000, $attr, 32) == 0 # mount_setattr(fd, "", AT_EMPTY_PATH, MOUNT_ATTR_IDMAP[|RDONLY])
        or fail("$path is on a file system that cannot be idmapped ($!)");
    push @clones, [$tree, $dir];
}
kill('KILL', map { $_->[0] } @children) if @children;  # the mounts hold their namespaces now
for my $child (@children) { close($child->[1]); waitpid($child->[0], 0); }
close($_) for values %userns;
# a small tmpfs over STAGE: fsopen, fsconfig (mode, size, create), fsmount, move_mount
my ($type, $mode_key, $mode_value, $size_key, $size_value, $none, $to) = ("tmpfs", "mode", "0755", "size", "64k", "", "$stage");
my $fs = syscall(430, $type, 1);
fail("fsopen tmpfs: $!") if $fs < 0;
syscall(431, $fs, 1, $mode_key, $mode_value, 0) == 0 && syscall(431, $fs, 1, $size_key, $size_value, 0) == 0
    && syscall(431, $fs, 6, 0, 0, 0) == 0 or fail("fsconfig tmpfs: $!");
my $tmpfs = syscall(432, $fs, 1, 0);
fail("fsmount tmpfs: $!") if $tmpfs < 0;
syscall(429, $tmpfs, $none, -100, $to, 4) == 0 or fail("mount a tmpfs on $stage: $!");
for my $n (0 .. $#clones) {
    my $clone = $clones[$n] or next;
    my ($tree, $dir) = @$clone;
    my $entry = "$stage/$n";
    if ($dir) { mkdir($entry) or fail("mkdir $entry: $!"); }
    else { open(my $h, '>', $entry) or fail("$entry: $!"); close($h); }
    syscall(429, $tree, $none, -100, $entry, 4) == 0  # move_mount(fd, "", AT_FDCWD, entry, MOVE_MOUNT_F_EMPTY_PATH)
        or fail("move_mount $items[$n]: $!");
}
exec { $ARGV[0] } @ARGV or fail("exec $ARGV[0]: $!");
