# A TAP::Harness that also writes what make test adds up: prove and
# pg_prove load it with --harness TAPCounts (PERL5LIB=test/scripts), and
# after the run it writes "PASSED FAILED" to the file $ENV{TAP_COUNTS}.
#
# PASSED is the tests that passed (skipped and TODO ones included), FAILED
# those that failed; a file that failed without a failing test (it died,
# ran fewer tests than planned, printed no plan, or exited non-zero) counts
# as one failure more.
package TAPCounts;

use strict;
use warnings;
use parent 'TAP::Harness';

# run the tests as TAP::Harness does, then write the counts
sub runtests
{
	my ($self, @tests) = @_;
	my $aggregate = $self->SUPER::runtests(@tests);
	my ($passed, $failed) = (0, 0);
	for my $description ($aggregate->descriptions)
	{
		for my $parser ($aggregate->parsers($description))
		{
			my $bad = scalar $parser->failed;
			$passed += scalar $parser->passed;
			$failed += $bad;
			$failed += 1
			  if !$bad && ($parser->has_problems || (!$parser->tests_run && !$parser->skip_all));
		}
	}
	if (my $file = $ENV{TAP_COUNTS})
	{
		open my $fh, '>', $file or die "$file: $!";
		print $fh "$passed $failed\n";
		close $fh or die "$file: $!";
	}
	return $aggregate;
}

1;
