# Board backend unit tests: the backend against a fake register file, FIFOs standing in
# for the UIO interrupt, and fake u-dma-buf / FPGA manager sysfs files in a temporary
# directory. No board needed.
if(TARGET weft_board)
  add_executable(board_unit_tests ${CMAKE_CURRENT_LIST_DIR}/board_test.cpp)
  target_link_libraries(board_unit_tests PRIVATE weft_board GTest::gtest_main Threads::Threads)
  weft_test_code(board_unit_tests)
  gtest_discover_tests(board_unit_tests TEST_PREFIX "board." DISCOVERY_TIMEOUT 30
                       PROPERTIES TIMEOUT 60)
  weft_sanitized_tests(board_unit_tests board. 120 SOURCES ${CMAKE_CURRENT_LIST_DIR}/board_test.cpp
    LIBS weft_board)
endif()

# The mainline reconfiguration method, device-tree overlays on FPGA regions, against a fake
# configfs: the program interposes mkdir() and rmdir() so that its overlay directory
# behaves as configfs does, and its fake kernel reads each overlay with libfdt. Its own
# program, so that the interposition touches no other test.
if(TARGET weft_board)
  set(board_overlay_test ${CMAKE_CURRENT_LIST_DIR}/board_overlay_test.cpp)
  add_executable(board_overlay_unit_tests ${board_overlay_test})
  target_link_libraries(board_overlay_unit_tests PRIVATE weft_board weft_fdt GTest::gtest_main
                        Threads::Threads)
  weft_test_code(board_overlay_unit_tests)
  gtest_discover_tests(board_overlay_unit_tests TEST_PREFIX "board." DISCOVERY_TIMEOUT 30
                       PROPERTIES TIMEOUT 60)
  weft_sanitized_tests(board_overlay_unit_tests board. 120 SOURCES ${board_overlay_test}
    LIBS weft_board)
  foreach(san IN LISTS WEFT_SANITIZERS)
    if(TARGET board_overlay_unit_tests_${san})
      target_link_libraries(board_overlay_unit_tests_${san} PRIVATE weft_fdt)
    endif()
  endforeach()
endif()
