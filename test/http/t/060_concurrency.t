# Concurrent registration: 8 clients register 50 schemas into one subject;
# then the same new schemas under a subject per client, all at once
# (concurrent_register.py and concurrent_subjects.py, one test per line
# they print).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/..";
use RegistryHttp;
use Test::More;

my $dir = "$FindBin::Bin/..";
helper 'concurrent_register.py', 'python3', "$dir/concurrent_register.py", $URL, "$RUN-conc", 8, 50;
helper 'concurrent_subjects.py', 'python3', "$dir/concurrent_subjects.py", $URL, "$RUN-race", 8, 30;

done_testing();
