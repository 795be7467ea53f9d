"""`grader release`: one master notebook made into the student's version, the grading
assignment and the students' bundle. Internal: `grader.cli.release` is its front end."""
