/* A shared object without weft_slot_model_abi(): slot_reconfigure() must refuse it. */
int weft_test_not_an_image(void);
int weft_test_not_an_image(void)
{
    return 42;
}
