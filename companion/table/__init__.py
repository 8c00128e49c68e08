"""The running table: readers, tap filter, live game and store wired together; its config file,
its name on the LAN, enrolment."""
