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
