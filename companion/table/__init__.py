"""The running table: readers, tap filter, tracker and store wired together; enrolment."""
