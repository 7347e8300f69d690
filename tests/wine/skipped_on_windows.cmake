# The GoogleTest tests of the Windows build that cannot mean anything there, by name, each with its reason:
# CTest marks them Disabled ("Not Run (Disabled)"); the reasons are written here. Read by CTest
# after the tests are discovered (tests/wine/CMakeLists.txt adds it to TEST_INCLUDE_FILES).
set(anvilrt_skipped_on_windows
  "ReadmeRoundTrip.RunsAsWritten|runs the README's sh block with bash, which Windows lacks: Wine.ReadmeRoundTrip runs the same block on anvilrt.exe from C:\\ under Wine"
)
foreach(entry IN LISTS anvilrt_skipped_on_windows)
  string(REPLACE "|" ";" entry "${entry}")
  list(GET entry 0 name)
  set_tests_properties("${name}" PROPERTIES DISABLED TRUE)
endforeach()
